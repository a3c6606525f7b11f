import type { InventoryEvent, InventoryEventType } from "../inventory/inventory-event.js";
import type { DeviceState, ZigbeeDevice } from "./zigbee-device.js";

/** HTTP methods a webhook trigger can accept. */
export type WebhookMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Parsed MQTT payload: a JSON object, or `{ raw: "<text>" }` when the payload is not a JSON object. */
export type MqttPayload = Record<string, unknown>;

/** Fires when a message arrives on a topic matching `topic` (`+` one level, `#` the rest). */
export interface MqttTrigger {
  type: "mqtt";
  topic: string;
  filter?: (payload: MqttPayload) => boolean;
}

/** Fires on a cron schedule (5 or 6 fields), in the TZ timezone. */
export interface CronTrigger {
  type: "cron";
  expression: string;
}

/** Fires when the state value under `key` changes. */
export interface StateTrigger {
  type: "state";
  key: string;
  filter?: (newValue: unknown, oldValue: unknown) => boolean;
}

/**
 * A webhook's shared secret. `token`: the caller sends it in `header` (default
 * `X-Webhook-Token`) or as `Authorization: Bearer <token>`. `hmac`: the caller signs the raw
 * request body with `secret` and sends the hex digest in `header` (default
 * `X-Hub-Signature-256`), optionally prefixed `sha256=`.
 */
export type WebhookSecret =
  | { type: "token"; token: string; header?: string }
  | { type: "hmac"; secret: string; header?: string; algorithm?: "sha256" | "sha512" | "sha1" };

/** Fires on an HTTP request to `/webhook/<path>` with one of `methods` (default POST). */
export interface WebhookTrigger {
  type: "webhook";
  path: string;
  methods?: WebhookMethod[];
  /**
   * Optional proof the caller must send; a request without it, or with a wrong one, gets 401
   * and the automation does not run. A plain string is a token (`{ type: "token", token }`).
   */
  secret?: string | WebhookSecret;
}

/** Fires when a tracked Zigbee device publishes a state update (merged state). */
export interface DeviceStateTrigger {
  type: "device_state";
  friendlyName: string;
  filter?: (state: DeviceState, device: ZigbeeDevice) => boolean;
}

/** Fires when a device joins the network; omit `friendlyName` to match any device. */
export interface DeviceJoinedTrigger {
  type: "device_joined";
  friendlyName?: string;
}

/** Fires when a device leaves the network; omit `friendlyName` to match any device. */
export interface DeviceLeftTrigger {
  type: "device_left";
  friendlyName?: string;
}

/**
 * Fires on inventory events (an item created, consumed, archived, a member joined, ...),
 * delivered after the change committed. `events` narrows to some event types, `householdId`
 * to one household; `filter` sees each event and returns true to run.
 */
export interface InventoryTrigger {
  type: "inventory";
  events?: InventoryEventType[];
  householdId?: string;
  filter?: (event: InventoryEvent) => boolean;
}

/** Everything that can make an automation run, discriminated on `type`. */
export type Trigger =
  | MqttTrigger
  | CronTrigger
  | StateTrigger
  | WebhookTrigger
  | DeviceStateTrigger
  | DeviceJoinedTrigger
  | DeviceLeftTrigger
  | InventoryTrigger;

export type TriggerType = Trigger["type"];

export interface MqttTriggerContext {
  type: "mqtt";
  topic: string;
  payload: MqttPayload;
}

export interface CronTriggerContext {
  type: "cron";
  expression: string;
  firedAt: Date;
}

export interface StateTriggerContext {
  type: "state";
  key: string;
  newValue: unknown;
  oldValue: unknown;
}

export interface WebhookTriggerContext {
  type: "webhook";
  path: string;
  method: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

export interface DeviceStateTriggerContext {
  type: "device_state";
  friendlyName: string;
  state: DeviceState;
  device: ZigbeeDevice;
}

export interface DeviceJoinedTriggerContext {
  type: "device_joined";
  device: ZigbeeDevice;
}

export interface DeviceLeftTriggerContext {
  type: "device_left";
  device: ZigbeeDevice;
}

/** An inventory event, as the `inventory` trigger hands it to execute(). */
export interface InventoryTriggerContext {
  type: "inventory";
  event: InventoryEvent;
}

/**
 * What the engine adds to every run's context. `signal` aborts when the run should give up:
 * a newer firing replaced it (`mode: "restart"`), or the automation is being stopped or
 * reloaded. Contexts built by hand (tests, manual triggers) may leave it out.
 */
export interface RunSignal {
  signal?: AbortSignal;
}

/** What execute() receives: which trigger fired and its data, discriminated on `type`. */
export type TriggerContext = RunSignal &
  (
    | MqttTriggerContext
    | CronTriggerContext
    | StateTriggerContext
    | WebhookTriggerContext
    | DeviceStateTriggerContext
    | DeviceJoinedTriggerContext
    | DeviceLeftTriggerContext
    | InventoryTriggerContext
  );
