import { topicFilterProblem } from "../../domain/automation/topic-filter.js";
import { INVENTORY_EVENT_TYPES } from "../../domain/inventory/inventory-event.js";
import type {
  CronTrigger,
  InventoryTrigger,
  DeviceJoinedTrigger,
  DeviceLeftTrigger,
  DeviceStateTrigger,
  MqttTrigger,
  StateTrigger,
  Trigger,
  TriggerContext,
  TriggerType,
  WebhookMethod,
  WebhookSecret,
  WebhookTrigger,
} from "../../domain/automation/trigger.js";
import type { ZigbeeDevice } from "../../domain/automation/zigbee-device.js";
import type { Logger } from "../../ports/logger.js";
import type { Scheduler } from "../../ports/scheduler.js";
import type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "../../ports/device-registry.js";
import type { MqttHandler, MqttServiceApi } from "../../ports/mqtt-bus.js";
import type { StateChangeHandler, StateManagerApi } from "../../ports/state-store.js";
import type { InventoryEventHandler, InventoryEventSourceApi } from "../../ports/inventory-events.js";

/** What a trigger handler needs to wire one trigger of one automation. */
export interface WiringContext {
  automation: string;
  /** Unique id of this trigger (automation name + position), used for cron job ids. */
  triggerId: string;
  /** Runs the automation with `context` (stats, error isolation and logging included). */
  fire(context: TriggerContext): void;
  /** Counts an event the trigger's filter turned away, keeping its payload (traces). */
  rejected?(payload: unknown): void;
  mqtt: MqttServiceApi;
  state: StateManagerApi;
  scheduler: Scheduler;
  deviceRegistry: DeviceRegistryApi | null;
  /** Scoped to the automation. */
  logger: Logger;
  /** False when HTTP_PORT=0: webhook triggers can never fire. */
  httpEnabled: boolean;
  /** Delivered inventory events; null when the engine runs without the inventory (library use). */
  inventoryEvents?: InventoryEventSourceApi | null;
}

/** Removes everything a wire() call added. */
export type Unwire = () => void;

/** Validation and wiring of one trigger type. */
export interface TriggerHandler<T extends Trigger> {
  /** Why the trigger cannot be wired, or null. Runs for every trigger before any is wired. */
  validate(trigger: T, scheduler: Scheduler): string | null;
  wire(trigger: T, context: WiringContext): Unwire;
}

export const WEBHOOK_METHODS: readonly WebhookMethod[] = ["GET", "POST", "PUT", "DELETE"];

/** `/a/b/` and `a/b` name the same webhook. */
export function normalizeWebhookPath(path: string): string {
  return path.replace(/^\/+|\/+$/g, "");
}

/** Filters are user code: a throwing filter is logged and counts as "no match". */
function passes(logger: Logger, trigger: Trigger, check: () => boolean): boolean {
  try {
    return check() === true;
  } catch (error) {
    logger.error("Trigger filter threw; treating it as no match", { trigger: trigger.type, err: error });
    return false;
  }
}

function needsString(value: unknown, field: string): string | null {
  return typeof value === "string" && value.trim() !== "" ? null : `${field} must be a non-empty string`;
}

function optionalString(value: unknown, field: string): string | null {
  return value === undefined ? null : needsString(value, field);
}

function optionalFunction(value: unknown): string | null {
  return value === undefined || typeof value === "function" ? null : "filter must be a function";
}

function registryMissing(context: WiringContext, trigger: Trigger): Unwire {
  context.logger.warn("Device registry is disabled; skipping this device trigger (other triggers stay active)", {
    trigger: trigger.type,
    friendlyName: (trigger as { friendlyName?: string }).friendlyName,
  });
  return () => {};
}

const mqttHandler: TriggerHandler<MqttTrigger> = {
  validate: (trigger) =>
    needsString(trigger.topic, "topic") ?? topicFilterProblem(trigger.topic) ?? optionalFunction(trigger.filter),
  wire(trigger, context) {
    const filter = trigger.filter;
    const handler: MqttHandler = filter
      ? (topic, payload) => {
          if (passes(context.logger, trigger, () => filter(payload))) context.fire({ type: "mqtt", topic, payload });
          else context.rejected?.({ topic, payload });
        }
      : (topic, payload) => context.fire({ type: "mqtt", topic, payload });
    context.mqtt.subscribe(trigger.topic, handler);
    return () => context.mqtt.unsubscribe(trigger.topic, handler);
  },
};

const cronHandler: TriggerHandler<CronTrigger> = {
  validate: (trigger, scheduler) =>
    needsString(trigger.expression, "expression") ?? scheduler.validate(trigger.expression),
  wire(trigger, context) {
    context.scheduler.schedule(context.triggerId, trigger.expression, (firedAt) =>
      context.fire({ type: "cron", expression: trigger.expression, firedAt }),
    );
    return () => context.scheduler.remove(context.triggerId);
  },
};

const stateHandler: TriggerHandler<StateTrigger> = {
  validate: (trigger) => needsString(trigger.key, "key") ?? optionalFunction(trigger.filter),
  wire(trigger, context) {
    const filter = trigger.filter;
    const handler: StateChangeHandler = (key, newValue, oldValue) => {
      if (filter && !passes(context.logger, trigger, () => filter(newValue, oldValue))) {
        context.rejected?.({ key, newValue, oldValue });
        return;
      }
      context.fire({ type: "state", key, newValue, oldValue });
    };
    context.state.onChange(trigger.key, handler);
    return () => context.state.offChange(trigger.key, handler);
  },
};

/** The secret of a webhook trigger in its long form, or undefined when it has none. */
export function webhookSecretOf(trigger: WebhookTrigger): WebhookSecret | undefined {
  return typeof trigger.secret === "string" ? { type: "token", token: trigger.secret } : trigger.secret;
}

const HMAC_ALGORITHMS = ["sha256", "sha512", "sha1"];

/** The header a webhook secret is read from when the trigger names none. */
export function defaultWebhookHeader(secret: WebhookSecret): string {
  return secret.type === "token" ? "X-Webhook-Token" : "X-Hub-Signature-256";
}

function webhookSecretProblem(secret: WebhookTrigger["secret"]): string | null {
  if (secret === undefined) return null;
  if (typeof secret === "string") return secret.length >= 8 ? null : "secret must be at least 8 characters";
  if (typeof secret !== "object" || secret === null)
    return 'secret must be a string or { type: "token" | "hmac", ... }';
  if (secret.header !== undefined && (typeof secret.header !== "string" || !/^[A-Za-z0-9-]+$/.test(secret.header))) {
    return "secret.header must be an HTTP header name";
  }
  if (secret.type === "token") {
    return typeof secret.token === "string" && secret.token.length >= 8
      ? null
      : "secret.token must be at least 8 characters";
  }
  if (secret.type === "hmac") {
    if (typeof secret.secret !== "string" || secret.secret.length < 8)
      return "secret.secret must be at least 8 characters";
    if (secret.algorithm !== undefined && !HMAC_ALGORITHMS.includes(secret.algorithm)) {
      return `secret.algorithm must be one of ${HMAC_ALGORITHMS.join(", ")}`;
    }
    return null;
  }
  return 'secret.type must be "token" or "hmac"';
}

/**
 * A path no request can reach: the query and the fragment are never part of the path a request
 * names, and clients (browsers, curl, fetch) resolve `.` and `..` segments before sending. Such a
 * trigger would register and answer every call with 404.
 */
function unreachableWebhookPath(path: string): string | null {
  if (/[?#]/.test(path)) {
    return `path must not contain "?" or "#" (a request's query and fragment are not part of its path; read the query from context.query)`;
  }
  if (path.split("/").some((segment) => segment === "." || segment === "..")) {
    return 'path must not contain "." or ".." segments (clients resolve them before sending)';
  }
  return null;
}

const webhookHandler: TriggerHandler<WebhookTrigger> = {
  validate(trigger) {
    const problem = needsString(trigger.path, "path");
    if (problem) return problem;
    if (normalizeWebhookPath(trigger.path) === "") return "path must name something below /webhook/";
    const unreachable = unreachableWebhookPath(trigger.path);
    if (unreachable) return unreachable;
    const secretProblem = webhookSecretProblem(trigger.secret);
    if (secretProblem) return secretProblem;
    if (trigger.methods === undefined) return null;
    if (!Array.isArray(trigger.methods) || trigger.methods.length === 0) return "methods must be a non-empty array";
    const unknown = trigger.methods.filter((method) => !WEBHOOK_METHODS.includes(method));
    return unknown.length > 0
      ? `unsupported webhook methods: ${unknown.join(", ")} (use ${WEBHOOK_METHODS.join(", ")})`
      : null;
  },
  // Dispatch happens in the webhook router through AutomationManager.findWebhookTargets.
  wire(trigger, context) {
    if (!context.httpEnabled) {
      context.logger.warn("HTTP server is disabled (HTTP_PORT=0); this webhook trigger can never fire", {
        path: trigger.path,
      });
    }
    return () => {};
  },
};

const deviceStateHandler: TriggerHandler<DeviceStateTrigger> = {
  validate: (trigger) => needsString(trigger.friendlyName, "friendlyName") ?? optionalFunction(trigger.filter),
  wire(trigger, context) {
    const registry = context.deviceRegistry;
    if (!registry) return registryMissing(context, trigger);
    const filter = trigger.filter;
    const handler: DeviceStateHandler = (state, device) => {
      if (filter && !passes(context.logger, trigger, () => filter(state, device))) {
        context.rejected?.({ friendlyName: device.friendly_name ?? trigger.friendlyName, state });
        return;
      }
      context.fire({ type: "device_state", friendlyName: device.friendly_name ?? trigger.friendlyName, state, device });
    };
    registry.onDeviceStateChange(trigger.friendlyName, handler);
    return () => registry.offDeviceStateChange(trigger.friendlyName, handler);
  },
};

function matchesName(friendlyName: string | undefined, device: ZigbeeDevice): boolean {
  return friendlyName === undefined || device.friendly_name === friendlyName;
}

/** device_joined and device_left differ only in which registry event they follow. */
function deviceEventHandler<T extends DeviceJoinedTrigger | DeviceLeftTrigger>(
  event: "added" | "removed",
): TriggerHandler<T> {
  return {
    validate: (trigger) => optionalString(trigger.friendlyName, "friendlyName"),
    wire(trigger, context) {
      const registry = context.deviceRegistry;
      if (!registry) return registryMissing(context, trigger);
      const handler: DeviceEventHandler = (device) => {
        if (!matchesName(trigger.friendlyName, device)) return;
        context.fire(event === "added" ? { type: "device_joined", device } : { type: "device_left", device });
      };
      if (event === "added") {
        registry.onDeviceAdded(handler);
        return () => registry.offDeviceAdded(handler);
      }
      registry.onDeviceRemoved(handler);
      return () => registry.offDeviceRemoved(handler);
    },
  };
}

function inventoryEventsProblem(events: unknown): string | null {
  if (events === undefined) return null;
  if (!Array.isArray(events) || events.length === 0) return "events must be a non-empty array of inventory event types";
  const unknown = events.filter((type) => !(INVENTORY_EVENT_TYPES as readonly unknown[]).includes(type));
  return unknown.length > 0
    ? `unknown inventory event types: ${unknown.map(String).join(", ")} (use ${INVENTORY_EVENT_TYPES.join(", ")})`
    : null;
}

const inventoryHandler: TriggerHandler<InventoryTrigger> = {
  validate: (trigger) =>
    inventoryEventsProblem(trigger.events) ??
    optionalString(trigger.householdId, "householdId") ??
    optionalFunction(trigger.filter),
  wire(trigger, context) {
    const source = context.inventoryEvents;
    if (!source) {
      context.logger.warn("The inventory is not running in this process; this inventory trigger can never fire");
      return () => {};
    }
    const { events, householdId, filter } = trigger;
    const handler: InventoryEventHandler = (event) => {
      if (events && !events.includes(event.type)) return;
      if (householdId !== undefined && event.householdId !== householdId) return;
      if (filter && !passes(context.logger, trigger, () => filter(event))) return;
      context.fire({ type: "inventory", event });
    };
    source.onEvent(handler);
    return () => source.offEvent(handler);
  },
};

/** One handler per trigger type: adding a trigger type means adding a row here. */
export const triggerHandlers: { readonly [K in TriggerType]: TriggerHandler<Extract<Trigger, { type: K }>> } = {
  mqtt: mqttHandler,
  cron: cronHandler,
  state: stateHandler,
  webhook: webhookHandler,
  device_state: deviceStateHandler,
  device_joined: deviceEventHandler<DeviceJoinedTrigger>("added"),
  device_left: deviceEventHandler<DeviceLeftTrigger>("removed"),
  inventory: inventoryHandler,
};

/** The handler for `trigger.type`, or undefined for an unknown type. */
export function handlerFor(trigger: Trigger): TriggerHandler<Trigger> | undefined {
  if (trigger === null || typeof trigger !== "object") return undefined;
  if (!Object.hasOwn(triggerHandlers, trigger.type)) return undefined;
  return triggerHandlers[trigger.type] as TriggerHandler<Trigger>;
}
