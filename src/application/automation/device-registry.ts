import { parseJsonOr } from "../../domain/shared/parse-json.js";
import type { MqttPayload } from "../../domain/automation/trigger.js";
import type { DeviceState, ZigbeeDevice } from "../../domain/automation/zigbee-device.js";
import type { JsonStore } from "../../ports/json-store.js";
import type { Logger } from "../../ports/logger.js";
import type { Zigbee2MqttMessages } from "../../ports/zigbee2mqtt-messages.js";
import type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "../../ports/device-registry.js";
import type { MqttHandler, MqttServiceApi } from "../../ports/mqtt-bus.js";

/** At most this long between a change and the registry file being written. */
export const DEVICE_REGISTRY_SAVE_DELAY_MS = 1000;

/**
 * At most this many unknown friendly names have state held for a device list that may
 * introduce them. Enough for every device of a large network whose retained state beats
 * the retained device list at start-up; small enough that names that never become devices
 * (Zigbee2MQTT groups, stale retained topics) cost little.
 */
export const MAX_PENDING_DEVICE_STATES = 256;

/** Subtopics of a device that carry commands or availability, not state. */
const NON_STATE_SUFFIXES = ["/set", "/get", "/availability"];
const NON_STATE_SEGMENTS = ["/set/", "/get/"];

/**
 * The friendly name whose state a topic below the prefix carries, or null for topics that
 * are not device state: the bridge's own topics, commands (`/set`, `/get`, also with an
 * attribute after them), availability, and names Zigbee2MQTT never gives a device (empty,
 * or with an empty level). Unknown names are held as pending state, so anything let
 * through here would be kept, and later merged into a device's state if the name matched.
 */
function stateTopicName(rest: string): string | null {
  if (rest === "bridge" || rest.startsWith("bridge/")) return null;
  if (rest.split("/").includes("")) return null;
  if (NON_STATE_SUFFIXES.some((suffix) => rest.endsWith(suffix))) return null;
  if (NON_STATE_SEGMENTS.some((segment) => rest.includes(segment))) return null;
  return rest;
}

function isStateObject(value: unknown): value is DeviceState {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface DeviceRegistryTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface DeviceRegistryOptions {
  mqtt: MqttServiceApi;
  /** Reads Zigbee2MQTT's messages and the stored registry (adapters/zigbee2mqtt). */
  messages: Zigbee2MqttMessages;
  /** Zigbee2MQTT base topic (ZIGBEE2MQTT_PREFIX). */
  prefix: string;
  logger: Logger;
  /** Nice names by friendly name or IEEE address. */
  names?: Record<string, string> | undefined;
  /** Persistence; null or omitted keeps the registry in memory only. */
  store?: JsonStore | null | undefined;
  /** Debounce of persistence writes, default 1 s. */
  saveDelayMs?: number | undefined;
  /** Injectable for tests; the global timers by default. */
  timers?: DeviceRegistryTimers | undefined;
}

const realTimers: DeviceRegistryTimers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending save must not keep the process alive; stop() saves anyway.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Turns an MQTT payload back into the JSON value Zigbee2MQTT sent (arrays arrive as `{ raw }`). */
function payloadValue(payload: MqttPayload | unknown): unknown {
  if (Array.isArray(payload)) return payload;
  if (typeof payload === "object" && payload !== null) {
    const record = payload as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && keys[0] === "raw" && typeof record.raw === "string") {
      return parseJsonOr(record.raw, record.raw);
    }
    return record;
  }
  return payload;
}

/**
 * Follows Zigbee2MQTT: the retained device list on `{prefix}/bridge/devices`, join and
 * leave events on `{prefix}/bridge/event`, and every device's state on
 * `{prefix}/{friendly_name}`. Keeps each device's merged last-known state and tells
 * automations about state changes, joins and leaves.
 */
export class DeviceRegistry implements DeviceRegistryApi {
  private readonly mqtt: MqttServiceApi;
  private readonly messages: Zigbee2MqttMessages;
  private readonly prefix: string;
  private readonly logger: Logger;
  // A Map of the configured names: friendly names come from the broker, and a device called
  // `constructor` must not find Object.prototype's member as its nice name.
  private readonly names: ReadonlyMap<string, string>;
  private readonly store: JsonStore | null;
  private readonly saveDelayMs: number;
  private readonly timers: DeviceRegistryTimers;

  /** Non-coordinator devices by friendly name. */
  private readonly devices = new Map<string, ZigbeeDevice>();
  private readonly nameByIeee = new Map<string, string>();
  private coordinatorIeee: string | null = null;
  private readonly states = new Map<string, DeviceState>();
  /**
   * Merged state for friendly names no device has yet, oldest update first. The broker
   * delivers retained messages in no set order across topics, so a device's retained state
   * can arrive before the retained device list that introduces it. Never reported by the
   * API and never saved: it is not a device's state until a device list or a join names it.
   */
  private readonly pendingStates = new Map<string, DeviceState>();
  private readonly stateHandlers = new Map<string, Set<DeviceStateHandler>>();
  /** Old friendly name -> new one, so handlers registered under an old name can still be removed by it. */
  private readonly renamedTo = new Map<string, string>();
  private readonly addedHandlers = new Set<DeviceEventHandler>();
  private readonly removedHandlers = new Set<DeviceEventHandler>();

  /** The first device list after start is the baseline: it announces no joins or leaves. */
  private baselineReceived = false;
  private loaded = false;
  private started = false;
  private saveTimer: unknown = null;
  private readonly handler: MqttHandler = (topic, payload) => this.onMessage(topic, payload);

  constructor(options: DeviceRegistryOptions) {
    this.mqtt = options.mqtt;
    this.messages = options.messages;
    this.prefix = options.prefix.replace(/\/+$/, "");
    this.logger = options.logger;
    this.names = new Map(Object.entries(options.names ?? {}));
    this.store = options.store ?? null;
    this.saveDelayMs = options.saveDelayMs ?? DEVICE_REGISTRY_SAVE_DELAY_MS;
    this.timers = options.timers ?? realTimers;
  }

  // ---- lifecycle -------------------------------------------------------------------

  /** Loads persisted devices (once) and subscribes to the bridge's topics. */
  async start(): Promise<void> {
    if (this.started) return;
    if (this.store && !this.loaded) await this.load();
    this.baselineReceived = false;
    this.mqtt.subscribe(`${this.prefix}/#`, this.handler);
    this.started = true;
    this.logger.info("Device registry following Zigbee2MQTT", { prefix: this.prefix });
  }

  /** Unsubscribes and writes the registry one last time. */
  async stop(): Promise<void> {
    if (this.started) {
      this.mqtt.unsubscribe(`${this.prefix}/#`, this.handler);
      this.started = false;
    }
    // Held only for this subscription: a restart gets the retained messages again.
    this.pendingStates.clear();
    this.cancelScheduledSave();
    if (this.store) await this.save();
  }

  /** Restores devices and their last states from the store; announces nothing. */
  async load(): Promise<void> {
    this.loaded = true;
    if (!this.store) return;
    const document = await this.store.load();
    if (document === undefined) return;
    const parsed = this.messages.storedRegistry(document);
    if (!parsed.ok) {
      // Moved aside rather than overwritten by the next save: the user may want it back.
      const movedTo = await this.store.moveAside();
      this.logger.warn("Stored device registry is malformed; moved it aside and starting empty", {
        reason: parsed.reason,
        movedTo,
      });
      return;
    }
    for (const device of parsed.value.devices) this.put(device);
    for (const [name, state] of Object.entries(parsed.value.states)) {
      if (this.devices.has(name)) this.states.set(name, state);
    }
    this.logger.info("Device registry loaded", { devices: this.devices.size });
  }

  async save(): Promise<void> {
    if (!this.store) return;
    this.cancelScheduledSave();
    try {
      await this.store.save({
        version: 1,
        devices: [...this.devices.values()],
        states: Object.fromEntries(this.states),
      });
    } catch (error) {
      this.logger.error("Could not save the device registry", { err: error });
    }
  }

  // ---- DeviceRegistryApi -------------------------------------------------------------

  getDevices(): ZigbeeDevice[] {
    return [...this.devices.values()];
  }

  /** By friendly name, IEEE address or nice name. */
  getDevice(name: string): ZigbeeDevice | null {
    return this.devices.get(this.resolveName(name) ?? "") ?? null;
  }

  hasDevice(name: string): boolean {
    return this.resolveName(name) !== null;
  }

  /** The nice name configured for the device's friendly name or IEEE address, else the friendly name. */
  getNiceName(name: string): string {
    const named = this.names.get(name);
    if (named !== undefined) return named;
    const friendly = this.resolveName(name);
    if (friendly === null) return name;
    const device = this.devices.get(friendly)!;
    return this.names.get(friendly) ?? this.names.get(device.ieee_address) ?? friendly;
  }

  getDeviceState(name: string): DeviceState | null {
    const friendly = this.resolveName(name) ?? name;
    const state = this.states.get(friendly);
    return state ? { ...state } : null;
  }

  onDeviceStateChange(name: string, handler: DeviceStateHandler): void {
    const handlers = this.stateHandlers.get(name) ?? new Set<DeviceStateHandler>();
    handlers.add(handler);
    this.stateHandlers.set(name, handlers);
  }

  /** Also finds a handler registered under a name the device has since been renamed from. */
  offDeviceStateChange(name: string, handler: DeviceStateHandler): void {
    const seen = new Set<string>();
    for (
      let current: string | undefined = name;
      current !== undefined && !seen.has(current);
      current = this.renamedTo.get(current)
    ) {
      seen.add(current);
      const handlers = this.stateHandlers.get(current);
      if (!handlers?.delete(handler)) continue;
      if (handlers.size === 0) this.stateHandlers.delete(current);
      return;
    }
  }

  onDeviceAdded(handler: DeviceEventHandler): void {
    this.addedHandlers.add(handler);
  }

  offDeviceAdded(handler: DeviceEventHandler): void {
    this.addedHandlers.delete(handler);
  }

  onDeviceRemoved(handler: DeviceEventHandler): void {
    this.removedHandlers.add(handler);
  }

  offDeviceRemoved(handler: DeviceEventHandler): void {
    this.removedHandlers.delete(handler);
  }

  // ---- message routing ---------------------------------------------------------------

  private onMessage(topic: string, payload: MqttPayload): void {
    if (!topic.startsWith(`${this.prefix}/`)) return;
    const rest = topic.slice(this.prefix.length + 1);
    if (rest === "bridge/devices") {
      this.onDeviceList(payloadValue(payload));
      return;
    }
    if (rest === "bridge/event") {
      this.onBridgeEvent(payloadValue(payload));
      return;
    }
    // Other bridge topics (state, info, logging, responses), commands and availability are no device state.
    const name = stateTopicName(rest);
    if (name !== null) this.onDeviceState(name, payload);
  }

  private onDeviceList(value: unknown): void {
    const parsed = this.messages.deviceList(value);
    if (!parsed.ok) {
      this.logger.warn("Ignoring malformed Zigbee2MQTT device list", { reason: parsed.reason });
      return;
    }
    const announce = this.baselineReceived;
    this.baselineReceived = true;
    const listed = new Set<string>();
    const added: ZigbeeDevice[] = [];
    for (const device of parsed.value) {
      if (device.type === "Coordinator") {
        this.coordinatorIeee = device.ieee_address;
        continue;
      }
      listed.add(device.ieee_address);
      const known = this.nameByIeee.has(device.ieee_address);
      this.put(device);
      if (!known) added.push(device);
    }
    const removed = [...this.devices.values()].filter((device) => !listed.has(device.ieee_address));
    for (const device of removed) this.remove(device);
    this.logger.debug("Zigbee2MQTT device list received", { devices: this.devices.size, baseline: !announce });
    this.scheduleSave();
    if (announce) {
      for (const device of added) this.announceAdded(device);
      for (const device of removed) this.announceRemoved(device);
    }
    this.settlePendingStates();
  }

  /**
   * A device list is complete, so it settles every pending state: a listed name takes its
   * state, and the rest (groups, devices removed earlier) is dropped, so a stale retained
   * state never waits to be pinned onto a device that reuses the name much later.
   */
  private settlePendingStates(): void {
    for (const name of [...this.pendingStates.keys()]) this.adoptPendingState(name);
    if (this.pendingStates.size === 0) return;
    this.logger.debug("Dropped state for names no device has", { names: [...this.pendingStates.keys()] });
    this.pendingStates.clear();
  }

  /**
   * Applies the state held for a name that now belongs to a device, as one state update.
   * It fires device_state handlers exactly as the same message would have had it arrived
   * after the device list: the registry never suppresses state updates of devices known at
   * start-up (only joins and leaves have a silent baseline), so the outcome must not depend
   * on the order in which the broker happened to deliver retained messages. Updates held
   * for one name fire once, with their merged state.
   */
  private adoptPendingState(name: string): void {
    const device = this.devices.get(name);
    const pending = this.pendingStates.get(name);
    if (!device || !pending) return;
    this.pendingStates.delete(name);
    this.applyState(device, pending);
  }

  private onBridgeEvent(value: unknown): void {
    const parsed = this.messages.bridgeEvent(value);
    if (!parsed.ok) {
      this.logger.warn("Ignoring malformed Zigbee2MQTT bridge event", { reason: parsed.reason });
      return;
    }
    const { type, data } = parsed.value;
    if (data.ieee_address === this.coordinatorIeee) return;
    const knownName = this.nameByIeee.get(data.ieee_address);
    switch (type) {
      case "device_joined":
      case "device_interview": {
        if (knownName !== undefined) {
          if (type === "device_interview" && data.status === "successful") this.updateFromInterview(knownName, data);
          return;
        }
        const device: ZigbeeDevice = {
          ieee_address: data.ieee_address,
          friendly_name: data.friendly_name,
          type: "Unknown",
          ...(data.definition && typeof data.definition === "object"
            ? { definition: data.definition as ZigbeeDevice["definition"] }
            : {}),
          ...(typeof data.supported === "boolean" ? { supported: data.supported } : {}),
        };
        this.put(device);
        this.scheduleSave();
        this.announceAdded(device);
        this.adoptPendingState(device.friendly_name);
        return;
      }
      case "device_leave": {
        if (knownName === undefined) {
          this.logger.debug("Unknown device left the network", { ieee_address: data.ieee_address });
          return;
        }
        const device = this.devices.get(knownName)!;
        this.remove(device);
        this.scheduleSave();
        this.announceRemoved(device);
        return;
      }
      default:
        // device_announce and future event types carry nothing the registry keeps.
        this.logger.debug("Zigbee2MQTT bridge event", { type, friendly_name: data.friendly_name });
    }
  }

  private updateFromInterview(name: string, data: Record<string, unknown>): void {
    const device = this.devices.get(name)!;
    if (data.definition && typeof data.definition === "object") {
      device.definition = data.definition as ZigbeeDevice["definition"];
    }
    if (typeof data.supported === "boolean") device.supported = data.supported;
    this.scheduleSave();
  }

  private onDeviceState(name: string, payload: MqttPayload): void {
    const device = this.devices.get(name);
    const value = payloadValue(payload);
    if (!isStateObject(value)) {
      // Only a known device's topic is worth a warning; an unknown one may be anything.
      if (device) this.logger.warn("Ignoring device state that is not a JSON object", { friendly_name: name });
      return;
    }
    if (device) this.applyState(device, value);
    else this.holdPendingState(name, value);
  }

  /** Merges an update over the device's last-known state and tells its handlers. */
  private applyState(device: ZigbeeDevice, update: DeviceState): void {
    const name = device.friendly_name;
    const merged: DeviceState = { ...(this.states.get(name) ?? {}), ...update };
    this.states.set(name, merged);
    this.scheduleSave();
    const handlers = this.stateHandlers.get(name);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      this.callSafely(() => handler({ ...merged }, device), "device state handler", name);
    }
  }

  /** Keeps state for a name no device has yet; past the bound the stalest name goes. */
  private holdPendingState(name: string, update: DeviceState): void {
    const merged: DeviceState = { ...(this.pendingStates.get(name) ?? {}), ...update };
    // Re-inserted so the Map's order stays oldest update first.
    this.pendingStates.delete(name);
    this.pendingStates.set(name, merged);
    if (this.pendingStates.size <= MAX_PENDING_DEVICE_STATES) return;
    const stalest = this.pendingStates.keys().next().value;
    if (stalest === undefined) return;
    this.pendingStates.delete(stalest);
    this.logger.debug("Dropped held state for an unknown name to stay within the bound", { friendly_name: stalest });
  }

  // ---- bookkeeping -------------------------------------------------------------------

  /** Adds or updates a device; a known IEEE address under a new friendly name is a rename. */
  private put(device: ZigbeeDevice): void {
    if (device.type === "Coordinator") {
      this.coordinatorIeee = device.ieee_address;
      return;
    }
    const previousName = this.nameByIeee.get(device.ieee_address);
    if (previousName !== undefined && previousName !== device.friendly_name) {
      this.rename(previousName, device.friendly_name, device.ieee_address);
    }
    this.devices.set(device.friendly_name, device);
    this.nameByIeee.set(device.ieee_address, device.friendly_name);
  }

  private rename(from: string, to: string, ieee: string): void {
    this.logger.info("Device renamed", { from, to, ieee_address: ieee });
    this.renamedTo.delete(to);
    this.renamedTo.set(from, to);
    this.devices.delete(from);
    const state = this.states.get(from);
    this.states.delete(from);
    if (state) this.states.set(to, { ...state, ...(this.states.get(to) ?? {}) });
    const handlers = this.stateHandlers.get(from);
    if (handlers) {
      this.stateHandlers.delete(from);
      const target = this.stateHandlers.get(to) ?? new Set<DeviceStateHandler>();
      for (const handler of handlers) target.add(handler);
      this.stateHandlers.set(to, target);
    }
  }

  private remove(device: ZigbeeDevice): void {
    this.devices.delete(device.friendly_name);
    this.nameByIeee.delete(device.ieee_address);
    this.states.delete(device.friendly_name);
  }

  private announceAdded(device: ZigbeeDevice): void {
    this.logger.info("Device joined", { friendly_name: device.friendly_name, ieee_address: device.ieee_address });
    for (const handler of [...this.addedHandlers]) {
      this.callSafely(() => handler(device), "device added handler", device.friendly_name);
    }
  }

  private announceRemoved(device: ZigbeeDevice): void {
    this.logger.info("Device left", { friendly_name: device.friendly_name, ieee_address: device.ieee_address });
    for (const handler of [...this.removedHandlers]) {
      this.callSafely(() => handler(device), "device removed handler", device.friendly_name);
    }
  }

  /** A handler that throws or rejects is logged; the others still run. */
  private callSafely(call: () => unknown, what: string, device: string): void {
    try {
      const result = call();
      if (result instanceof Promise) {
        result.catch((error: unknown) => this.logger.error(`A ${what} failed`, { friendly_name: device, err: error }));
      }
    } catch (error) {
      this.logger.error(`A ${what} failed`, { friendly_name: device, err: error });
    }
  }

  private resolveName(name: string): string | null {
    if (this.devices.has(name)) return name;
    const byIeee = this.nameByIeee.get(name);
    if (byIeee !== undefined) return byIeee;
    for (const friendly of this.devices.keys()) {
      const device = this.devices.get(friendly)!;
      if ((this.names.get(friendly) ?? this.names.get(device.ieee_address)) === name) return friendly;
    }
    return null;
  }

  private scheduleSave(): void {
    if (!this.store || this.saveTimer !== null) return;
    this.saveTimer = this.timers.setTimeout(() => {
      this.saveTimer = null;
      void this.save();
    }, this.saveDelayMs);
  }

  private cancelScheduledSave(): void {
    if (this.saveTimer === null) return;
    this.timers.clearTimeout(this.saveTimer);
    this.saveTimer = null;
  }
}
