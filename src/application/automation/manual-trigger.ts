import type { MqttPayload, TriggerContext } from "../../domain/automation/trigger.js";
import type { ZigbeeDevice } from "../../domain/automation/zigbee-device.js";
import type { InventoryEvent, InventoryEventType } from "../../domain/inventory/inventory-event.js";
import { DomainError } from "../../domain/shared/domain-error.js";
import type { AutomationInfo } from "../../ports/automation-catalog.js";
import type { DeviceRegistryApi } from "../../ports/device-registry.js";

/** A device as a manual trigger may give it: a name at least, the rest as the registry would hold it. */
export type ManualTriggerDevice = { friendly_name: string; ieee_address: string; type: string } & Record<
  string,
  unknown
>;

/**
 * What `POST /api/automations/:name/trigger` asks for: a trigger type and the fields of its
 * context, any of which may be left out where the automation's own trigger or the device
 * registry can supply them.
 */
export type ManualTrigger =
  | { type: "mqtt"; topic: string; payload?: unknown }
  | { type: "cron"; expression?: string | undefined; firedAt?: string | undefined }
  | { type: "state"; key: string; newValue?: unknown; oldValue?: unknown }
  | {
      type: "webhook";
      path?: string | undefined;
      method: string;
      headers: Record<string, string>;
      query: Record<string, string>;
      body?: unknown;
    }
  | {
      type: "device_state";
      friendlyName?: string | undefined;
      state: Record<string, unknown>;
      device?: ManualTriggerDevice | undefined;
    }
  | {
      type: "device_joined" | "device_left";
      friendlyName?: string | undefined;
      device?: ManualTriggerDevice | undefined;
    }
  | { type: "inventory"; event: ManualInventoryEvent };

/** An inventory event as a manual trigger gives it; what it leaves out comes from the automation's trigger. */
export interface ManualInventoryEvent {
  type?: InventoryEventType | undefined;
  householdId?: string | undefined;
  id?: string | undefined;
  occurredAt?: string | undefined;
  data?: Record<string, unknown> | undefined;
}

/** Something a manual trigger left out that the automation's own triggers cannot supply. */
export class ManualTriggerFieldMissingError extends DomainError {
  readonly code = "MANUAL_TRIGGER_FIELD_MISSING";

  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

function triggerField(info: AutomationInfo, type: string, field: string): string | undefined {
  const trigger = info.triggers.find((candidate) => candidate.type === type && typeof candidate[field] === "string");
  return trigger ? (trigger[field] as string) : undefined;
}

/** An MQTT payload as handlers receive it: objects as they are, anything else wrapped as `{ raw }`. */
function asMqttPayload(payload: unknown): MqttPayload {
  if (payload === undefined) return {};
  if (typeof payload === "object" && payload !== null && !Array.isArray(payload)) return payload as MqttPayload;
  return { raw: typeof payload === "string" ? payload : JSON.stringify(payload) };
}

/**
 * The TriggerContext a manual trigger stands for. Fields it leaves out come from the
 * automation's own trigger (cron expression, webhook path, device name) or the device registry
 * (device record and current state); a cron firing without `firedAt` fired `now`. Throws
 * ManualTriggerFieldMissingError naming the field when neither has it.
 */
export function buildManualTriggerContext(
  trigger: ManualTrigger,
  info: AutomationInfo,
  devices: DeviceRegistryApi | null,
  now: Date,
): TriggerContext {
  const deviceFor = (
    friendlyName: string | undefined,
    given: ManualTriggerDevice | undefined,
    type: string,
  ): ZigbeeDevice => {
    if (given) return given as ZigbeeDevice;
    const name = friendlyName ?? triggerField(info, type, "friendlyName");
    if (name === undefined) throw new ManualTriggerFieldMissingError("friendlyName", "Give friendlyName or device");
    return devices?.getDevice(name) ?? { friendly_name: name, ieee_address: "", type: "Unknown" };
  };
  switch (trigger.type) {
    case "mqtt":
      return { type: "mqtt", topic: trigger.topic, payload: asMqttPayload(trigger.payload) };
    case "cron": {
      const expression = trigger.expression ?? triggerField(info, "cron", "expression");
      if (expression === undefined) throw new ManualTriggerFieldMissingError("expression", "Give the cron expression");
      return { type: "cron", expression, firedAt: trigger.firedAt ? new Date(trigger.firedAt) : now };
    }
    case "state":
      return { type: "state", key: trigger.key, newValue: trigger.newValue, oldValue: trigger.oldValue };
    case "webhook": {
      const path = trigger.path ?? triggerField(info, "webhook", "path");
      if (path === undefined) throw new ManualTriggerFieldMissingError("path", "Give the webhook path");
      return {
        type: "webhook",
        path,
        method: trigger.method.toUpperCase(),
        headers: trigger.headers,
        query: trigger.query,
        body: trigger.body,
      };
    }
    case "device_state": {
      const device = deviceFor(trigger.friendlyName, trigger.device, "device_state");
      const friendlyName = trigger.friendlyName ?? device.friendly_name;
      const known = devices?.getDeviceState(friendlyName) ?? {};
      return { type: "device_state", friendlyName, state: { ...known, ...trigger.state }, device };
    }
    case "device_joined":
    case "device_left":
      return { type: trigger.type, device: deviceFor(trigger.friendlyName, trigger.device, trigger.type) };
    case "inventory":
      return { type: "inventory", event: manualInventoryEvent(trigger.event, info, now) };
  }
}

/**
 * A hand-made inventory event: the type defaults to the first the automation's trigger
 * listens to (else item.created), the household to the one it names; the id says it was manual.
 */
function manualInventoryEvent(given: ManualInventoryEvent, info: AutomationInfo, now: Date): InventoryEvent {
  const trigger = info.triggers.find((candidate) => candidate.type === "inventory");
  const listened = Array.isArray(trigger?.events) ? (trigger.events as InventoryEventType[]) : [];
  const householdId = given.householdId ?? triggerField(info, "inventory", "householdId");
  if (householdId === undefined)
    throw new ManualTriggerFieldMissingError("event.householdId", "Give event.householdId");
  return {
    id: given.id ?? `manual-${now.getTime()}`,
    type: given.type ?? listened[0] ?? "item.created",
    householdId,
    occurredAt: given.occurredAt ? new Date(given.occurredAt) : now,
    actor: null,
    data: given.data ?? {},
  } as InventoryEvent;
}
