/**
 * Shapes of the engine's components as the rest of the engine sees them. The classes
 * that implement them live beside this file; HTTP routers, the web UI and services
 * depend on these interfaces only.
 */
import type { NotificationOptions } from "../../domain/automation/notification.js";
import type { MqttPayload, Trigger, TriggerContext, WebhookSecret } from "../../domain/automation/trigger.js";
import type { DeviceState, ZigbeeDevice } from "../../domain/automation/zigbee-device.js";
import type { RouteRegistrar } from "../../ports/route-registrar.js";

export type MqttHandler = (topic: string, payload: MqttPayload) => void | Promise<void>;

export interface PublishOptions {
  qos?: 0 | 1 | 2;
  retain?: boolean;
}

/** One multiplexed broker connection shared by every automation and service. */
export interface MqttServiceApi {
  readonly isConnected: boolean;
  connect(): Promise<void>;
  subscribe(topic: string, handler: MqttHandler): void;
  /** The broker subscription is dropped when the last handler of `topic` goes. */
  unsubscribe(topic: string, handler: MqttHandler): void;
  publish(topic: string, payload: Record<string, unknown> | string, options?: PublishOptions): void;
  /** Publishes to `{prefix}/{friendlyName}/set`. */
  publishToDevice(friendlyName: string, payload: Record<string, unknown>, options?: PublishOptions): void;
  /** `{prefix}/{friendlyName}`. */
  deviceTopic(friendlyName: string): string;
  disconnect(): Promise<void>;
  /** Running totals since start, read by metrics. */
  readonly stats: { received: number; published: number; reconnects: number };
  /** Connection changes, for readiness, metrics and the web UI banner. Returns an unsubscribe function. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

export type StateChangeHandler = (key: string, newValue: unknown, oldValue: unknown) => void;

export interface StateManagerApi {
  get<T = unknown>(key: string, defaultValue?: T): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): boolean;
  has(key: string): boolean;
  keys(): string[];
  /** Every key and value, for the debug API. */
  entries(): Record<string, unknown>;
  onChange(key: string, handler: StateChangeHandler): void;
  offChange(key: string, handler: StateChangeHandler): void;
  onAnyChange(handler: StateChangeHandler): void;
  offAnyChange(handler: StateChangeHandler): void;
  load(): Promise<void>;
  save(): Promise<void>;
}

export interface AutomationStats {
  runs: number;
  errors: number;
  /** ISO-8601 or null. */
  lastRunAt: string | null;
  lastError: string | null;
  lastDurationMs: number | null;
}

/** A trigger as JSON: the trigger's fields, functions replaced by `hasFilter`. */
export type TriggerDescription = { type: Trigger["type"]; hasFilter?: boolean } & Record<string, unknown>;

export interface AutomationInfo {
  name: string;
  /** File it was loaded from, or null when registered programmatically. */
  file: string | null;
  status: "running" | "failed";
  error?: string;
  triggers: TriggerDescription[];
  stats: AutomationStats;
}

/** Outcome of a manual trigger. */
export type TriggerResult = { status: "not_found" } | { status: "ok" } | { status: "error"; error: string };

/** One automation a webhook path reaches: the methods it accepts, and each trigger's secret. */
export interface WebhookTarget {
  name: string;
  /** Every method any of its triggers on the path accepts. */
  methods: string[];
  /** Its triggers on the path; a request is let through by one whose method matches and whose secret (if any) it proves. */
  triggers: { methods: string[]; secret?: WebhookSecret }[];
}

export interface AutomationManagerApi {
  listAutomations(): AutomationInfo[];
  getAutomation(name: string): AutomationInfo | null;
  /** Runs execute(context) and reports how it ended (the spec's boolean form is triggerAutomation). */
  runAutomation(name: string, context: TriggerContext): Promise<TriggerResult>;
  /** Automations whose webhook triggers match `path`, with the methods each accepts. */
  findWebhookTargets(path: string): WebhookTarget[];
  /** Called for every run (metrics); returns an unsubscribe function. */
  onRun(listener: (event: { automation: string; durationMs: number; error?: unknown }) => void): () => void;
}

export type DeviceStateHandler = (state: DeviceState, device: ZigbeeDevice) => void;
export type DeviceEventHandler = (device: ZigbeeDevice) => void;

export interface DeviceRegistryApi {
  /** Non-coordinator devices. */
  getDevices(): ZigbeeDevice[];
  getDevice(name: string): ZigbeeDevice | null;
  hasDevice(name: string): boolean;
  getNiceName(name: string): string;
  getDeviceState(name: string): DeviceState | null;
  onDeviceStateChange(name: string, handler: DeviceStateHandler): void;
  offDeviceStateChange(name: string, handler: DeviceStateHandler): void;
  onDeviceAdded(handler: DeviceEventHandler): void;
  offDeviceAdded(handler: DeviceEventHandler): void;
  onDeviceRemoved(handler: DeviceEventHandler): void;
  offDeviceRemoved(handler: DeviceEventHandler): void;
}

export type { NotificationOptions };

/**
 * A service that gives each automation its own view: `require()` calls this with the
 * automation's name and returns what it gives (e.g. the inventory service attributes writes to it).
 */
export const SCOPE_TO_AUTOMATION: unique symbol = Symbol.for("hearth.scopeToAutomation");

export interface AutomationScopedService<T> {
  [SCOPE_TO_AUTOMATION](automation: string): T;
}

export function isAutomationScoped(service: unknown): service is AutomationScopedService<unknown> {
  return typeof service === "object" && service !== null && typeof (service as Record<symbol, unknown>)[SCOPE_TO_AUTOMATION] === "function";
}

export type InventoryEventHandler = (event: import("../../domain/inventory/inventory-event.js").InventoryEvent) => void;

/** Where `inventory` triggers hear delivered inventory events. */
export interface InventoryEventSourceApi {
  onEvent(handler: InventoryEventHandler): void;
  offEvent(handler: InventoryEventHandler): void;
}

/** What every service plugin receives at start. */
export interface CoreContext {
  /** The shared outbound HTTP client. */
  http: import("../../ports/http-client.js").HttpClient;
  /** A child logger scoped to the plugin (`{ service: serviceKey }`). */
  logger: import("../../ports/logger.js").Logger;
}

/**
 * A service with a lifecycle the engine manages. Plain objects without these hooks can
 * be registered too; the registry then only stores them.
 */
export interface ServicePlugin {
  readonly serviceKey: string;
  onStart?(context: CoreContext): Promise<void> | void;
  onStop?(): Promise<void> | void;
  /** Mounts custom routes on the engine HTTP server (an express app satisfies RouteRegistrar). */
  registerRoutes?(app: RouteRegistrar): void;
}

export interface ServiceRegistryApi {
  register(key: string, service: unknown): void;
  get<T = unknown>(key: string): T | null;
  getOrThrow<T = unknown>(key: string): T;
  /** Runs fn with the service when present; does nothing when absent. */
  use<T = unknown, R = void>(key: string, fn: (service: T) => R): R | undefined;
  has(key: string): boolean;
  keys(): string[];
  startAll(context: CoreContext): Promise<void>;
  stopAll(): Promise<void>;
}
