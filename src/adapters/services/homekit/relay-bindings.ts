/**
 * The relay service's channels as HomeKit services: a switch channel is a Switch, a cover
 * channel a WindowCovering (HAP specification: CurrentPosition, TargetPosition and
 * PositionState, 0 = closed, 100 = open, which is also Shelly's `Cover.GoToPosition` scale).
 */
import { Characteristic, Service } from "hap-nodejs";
import type { CoverStatus, RelayDeviceInfo, RelayService, SwitchStatus } from "../../../ports/relay-service.js";
import type { ServiceBinding } from "./bridged-accessory.js";

/** What a HomeKit write asks of the relay service. */
export type RelayCommand = { kind: "switch"; on: boolean } | { kind: "cover"; position: number };

/** One channel bridged as an accessory. */
export interface RelayChannelPlan {
  /** `relay:<device>:switch:<channel>`: stable while the configuration names the device the same. */
  id: string;
  device: string;
  channel: number;
  kind: "switch" | "cover";
  name: string;
}

/** HomeKit PositionState: 0 going down (closing), 1 going up (opening), 2 stopped. */
export function positionState(status: CoverStatus): 0 | 1 | 2 {
  if (status.state === "opening") return 1;
  if (status.state === "closing") return 0;
  return 2;
}

/** Every configured channel; a device with several channels gets its channel number in the name. */
export function planRelayChannels(devices: RelayDeviceInfo[]): RelayChannelPlan[] {
  const plans: RelayChannelPlan[] = [];
  for (const device of devices) {
    const channels = device.switches.length + device.covers.length;
    const label = (channel: number) => (channels > 1 ? `${device.name} ${channel}` : device.name);
    for (const channel of device.switches) {
      plans.push({
        id: `relay:${device.name}:switch:${channel}`,
        device: device.name,
        channel,
        kind: "switch",
        name: label(channel),
      });
    }
    for (const channel of device.covers) {
      plans.push({
        id: `relay:${device.name}:cover:${channel}`,
        device: device.name,
        channel,
        kind: "cover",
        name: label(channel),
      });
    }
  }
  return plans;
}

type RelayState = SwitchStatus | CoverStatus;

export function relayServiceBinding(plan: RelayChannelPlan): ServiceBinding<RelayState, RelayCommand> {
  if (plan.kind === "switch") {
    return {
      type: Service.Switch,
      subtype: `switch_${plan.channel}`,
      name: plan.name,
      characteristics: [
        {
          type: Characteristic.On,
          read: (state) => ("on" in state ? state.on : undefined),
          write: (value) => ({ kind: "switch", on: value === true }),
        },
      ],
    };
  }
  const position = (state: RelayState) =>
    "position" in state && typeof state.position === "number" ? state.position : undefined;
  return {
    type: Service.WindowCovering,
    subtype: `cover_${plan.channel}`,
    name: plan.name,
    characteristics: [
      { type: Characteristic.CurrentPosition, read: position },
      {
        type: Characteristic.TargetPosition,
        read: (state) =>
          "targetPosition" in state && typeof state.targetPosition === "number"
            ? state.targetPosition
            : position(state),
        write: (value) => ({ kind: "cover", position: Math.round(Number(value)) }),
      },
      { type: Characteristic.PositionState, read: (state) => ("state" in state ? positionState(state) : undefined) },
    ],
  };
}

/** Carries out a HomeKit write; rejects (ServiceCallError) when the device cannot be reached. */
export function sendRelayCommand(relay: RelayService, plan: RelayChannelPlan, command: RelayCommand): Promise<void> {
  return command.kind === "switch"
    ? relay.setSwitch(plan.device, command.on, plan.channel)
    : relay.setCoverPosition(plan.device, command.position, plan.channel);
}

/** The last state the relay service knows, without asking the device. */
export function lastKnownRelayState(relay: RelayService, plan: RelayChannelPlan): RelayState | null {
  return plan.kind === "switch"
    ? relay.lastKnownSwitch(plan.device, plan.channel)
    : relay.lastKnownCover(plan.device, plan.channel);
}

/** Asks the device for its state now, so HomeKit shows it before the first change. */
export function fetchRelayState(relay: RelayService, plan: RelayChannelPlan): Promise<RelayState> {
  return plan.kind === "switch"
    ? relay.getSwitchStatus(plan.device, plan.channel)
    : relay.getCoverStatus(plan.device, plan.channel);
}
