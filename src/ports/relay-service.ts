/**
 * The relay service (registry key `relay`): Shelly Gen 2+ switches and covers, named in
 * configuration and reached over HTTP RPC or MQTT RPC. Automations use it through
 * `this.services.use("relay", …)` or `this.require<RelayService>("relay")`; the HomeKit
 * bridge maps its switches and covers to accessories.
 *
 * Every command rejects with a `ServiceCallError` (service `relay`) when the device is
 * unknown, unreachable, refuses the credentials or answers an RPC error; nothing else.
 */

/** How a device is reached. */
export type RelayTransport = "http" | "mqtt";

/** One configured device, as listed by {@link RelayService.devices}. Holds no credentials. */
export interface RelayDeviceInfo {
  /** The name from configuration (`kitchen-light`). */
  name: string;
  transport: RelayTransport;
  /** `http://10.0.0.5` (no password) or the MQTT topic prefix (`shellyplus1-abc`). */
  address: string;
  /** Switch channels the configuration declares (default `[0]`); any channel can still be addressed. */
  switches: number[];
  /** Cover channels the configuration declares. */
  covers: number[];
}

/** A switch channel's state, from `Switch.GetStatus` or a `NotifyStatus` event. */
export interface SwitchStatus {
  device: string;
  channel: number;
  on: boolean;
  /** Active power in watts, on models that meter it. */
  powerW?: number;
  voltageV?: number;
  currentA?: number;
  temperatureC?: number;
  /** What last changed the output, as the device reports it (`HTTP_in`, `button`, `init`). */
  source?: string;
  /** When Hearth learnt this state. */
  updatedAt: Date;
}

/** Shelly's cover states. */
export type CoverState = "open" | "closed" | "opening" | "closing" | "stopped" | "calibrating";

/** A cover channel's state, from `Cover.GetStatus` or a `NotifyStatus` event. */
export interface CoverStatus {
  device: string;
  channel: number;
  state: CoverState;
  /** 0 (closed) to 100 (open); null until the cover is calibrated. */
  position: number | null;
  /** Where a `GoToPosition` is heading, when moving to one. */
  targetPosition?: number | null;
  powerW?: number;
  source?: string;
  updatedAt: Date;
}

/** A change of a switch or cover, pushed by an MQTT-connected device or learnt from a command. */
export type RelayStatusChange =
  | { kind: "switch"; device: string; channel: number; status: SwitchStatus; previous: SwitchStatus | null }
  | { kind: "cover"; device: string; channel: number; status: CoverStatus; previous: CoverStatus | null };

export type RelayStatusListener = (change: RelayStatusChange) => void;

export interface RelayService {
  /** Every configured device. */
  devices(): RelayDeviceInfo[];
  hasDevice(name: string): boolean;

  /** `Switch.Set` on; channel defaults to 0. */
  switchOn(device: string, channel?: number): Promise<void>;
  /** `Switch.Set` off. */
  switchOff(device: string, channel?: number): Promise<void>;
  /** `Switch.Set` to `on`. */
  setSwitch(device: string, on: boolean, channel?: number): Promise<void>;
  /** `Switch.Toggle`. */
  toggleSwitch(device: string, channel?: number): Promise<void>;
  /** `Switch.GetStatus`, asked of the device now. */
  getSwitchStatus(device: string, channel?: number): Promise<SwitchStatus>;

  /** `Cover.Open`. */
  openCover(device: string, channel?: number): Promise<void>;
  /** `Cover.Close`. */
  closeCover(device: string, channel?: number): Promise<void>;
  /** `Cover.Stop`. */
  stopCover(device: string, channel?: number): Promise<void>;
  /** `Cover.GoToPosition`, 0 (closed) to 100 (open). */
  setCoverPosition(device: string, position: number, channel?: number): Promise<void>;
  /** `Cover.GetStatus`, asked of the device now. */
  getCoverStatus(device: string, channel?: number): Promise<CoverStatus>;

  /**
   * The last state known without asking the device (from a command, a GetStatus or a
   * NotifyStatus event), or null. Synchronous, for readers that must not wait (HomeKit).
   */
  lastKnownSwitch(device: string, channel?: number): SwitchStatus | null;
  lastKnownCover(device: string, channel?: number): CoverStatus | null;

  /** Called on every status change of any device; returns the function that unsubscribes. */
  onStatusChange(listener: RelayStatusListener): () => void;
}

/** The registry key; `relays` and `relayService` are accepted as aliases. */
export const RELAY_SERVICE_KEY = "relay";
