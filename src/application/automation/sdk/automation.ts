// The SDK automation authors extend: it belongs to the application layer (its members are
// typed by the engine's contracts and ports), not to the domain, which stays pure data and rules.
import type {
  NotificationOptions,
  NotificationResult,
  NotificationService,
} from "../../../domain/automation/notification.js";
import type { Trigger, TriggerContext } from "../../../domain/automation/trigger.js";
import { DomainError } from "../../../domain/shared/domain-error.js";
import type { Clock } from "../../../ports/clock.js";
import type { HttpClient } from "../../../ports/http-client.js";
import type { Logger } from "../../../ports/logger.js";
import type { AutomationTimers, ScheduledTimer } from "../automation-timers.js";
import type { DeviceRegistryApi } from "../../../ports/device-registry.js";
import type { KnownServices, ServiceRegistryApi } from "../../../ports/engine-services.js";
import type { MqttServiceApi } from "../../../ports/mqtt-bus.js";
import type { StateManagerApi } from "../../../ports/state-store.js";
import { isAutomationScoped, SCOPE_TO_AUTOMATION } from "../../../ports/automation-scoped-service.js";

/**
 * Marks a class as an automation. A registered global symbol, so a class extending the
 * `Automation` of another copy of the package (a user project that resolved its own
 * `hearth`) is still recognised.
 */
export const AUTOMATION_BRAND: unique symbol = Symbol.for("hearth.automation") as never;

/** Key of the method the engine uses to hand an automation its runtime. */
export const ATTACH_RUNTIME: unique symbol = Symbol.for("hearth.automation.attach") as never;

/** Engine settings an automation can read through `this.config`. */
export interface AutomationConfig {
  readonly ZIGBEE2MQTT_PREFIX: string;
  readonly TZ?: string | undefined;
  readonly HTTP_PORT: number;
  readonly [setting: string]: unknown;
}

/** What the engine injects into an automation when it registers it. */
export interface AutomationRuntime {
  mqtt: MqttServiceApi;
  http: HttpClient;
  state: StateManagerApi;
  /** Already scoped to the automation. */
  logger: Logger;
  config: AutomationConfig;
  services: ServiceRegistryApi;
  deviceRegistry: DeviceRegistryApi | null;
  /** The engine's clock (a fake one under the test kit). */
  clock: Clock;
  /** The automation's own timers, cleared when it stops or reloads. */
  timers: AutomationTimers;
}

/**
 * What happens when a trigger fires while a run of the same automation is in progress (as
 * Home Assistant's automation modes):
 * - `"parallel"` (default): the new run starts beside it;
 * - `"single"`: the new firing is dropped (and counted in the automation's stats);
 * - `"restart"`: the running one's `context.signal` aborts and the new run starts;
 * - `"queued"`: the new run waits until the earlier ones have finished, in order.
 */
export type RunMode = "parallel" | "single" | "restart" | "queued";

/** Raised by `require()` when the requested service is not registered. */
export class ServiceNotAvailableError extends DomainError {
  readonly code = "SERVICE_NOT_AVAILABLE";
}

/** Raised when an automation's engine members are used before the engine registered it. */
export class AutomationNotRegisteredError extends DomainError {
  readonly code = "AUTOMATION_NOT_REGISTERED";
}

/**
 * Base class of every automation. Extend it, give it a unique kebab-case `name`, the
 * `triggers` that should run it, and an `execute(context)`; export the class as the
 * default export of a file in the automations directory.
 *
 * @example
 * ```ts
 * import { Automation, type Trigger, type TriggerContext } from "hearth";
 *
 * export default class PorchLight extends Automation {
 *   readonly name = "porch-light";
 *   readonly triggers: Trigger[] = [{ type: "mqtt", topic: "zigbee2mqtt/porch_motion" }];
 *
 *   async execute(context: TriggerContext): Promise<void> {
 *     if (context.type === "mqtt" && context.payload.occupancy === true) {
 *       this.mqtt.publishToDevice("porch_light", { state: "ON" });
 *     }
 *   }
 * }
 * ```
 */
export abstract class Automation {
  /** Brand the engine checks instead of `instanceof` (see {@link isAutomationClass}). */
  static readonly [AUTOMATION_BRAND] = true;

  /** Unique, kebab-case name (`porch-light`); used in logs, the debug API and the web UI. */
  abstract readonly name: string;

  /** What runs this automation; any one firing calls {@link Automation.execute}. */
  abstract readonly triggers: readonly Trigger[];

  /**
   * Service keys that must be registered when the engine starts; a missing one fails this
   * automation's registration (the engine keeps running).
   */
  readonly requiredServices?: readonly string[];

  /** What a firing does while a run is in progress; default `"parallel"`. See {@link RunMode}. */
  readonly mode?: RunMode | undefined;

  /**
   * For `"parallel"`: most runs in progress at once (unlimited by default). For `"queued"`:
   * most runs in progress and waiting together (default 10). Firings beyond it are dropped and counted.
   */
  readonly max?: number | undefined;

  #runtime: AutomationRuntime | undefined;

  /**
   * Runs for every trigger firing. `context.type` tells which trigger fired. An exception
   * or rejection is caught, logged with the automation's name and counted; it never
   * affects other automations.
   */
  abstract execute(context: TriggerContext): Promise<void> | void;

  /** Called once after registration and trigger wiring. Default: nothing. */
  async onStart(): Promise<void> {}

  /** Called once at shutdown, before the triggers are unwired. Default: nothing. */
  async onStop(): Promise<void> {}

  /** The shared MQTT connection: subscribe, publish, publishToDevice, deviceTopic. */
  get mqtt(): MqttServiceApi {
    return this.runtime.mqtt;
  }

  /** The shared outbound HTTP client (JSON in and out, timeouts, retries). */
  get http(): HttpClient {
    return this.runtime.http;
  }

  /** The engine's key-value state; `set()` fires state triggers of every automation. */
  get state(): StateManagerApi {
    return this.runtime.state;
  }

  /** A logger whose entries carry `{ automation: name }`. */
  get logger(): Logger {
    return this.runtime.logger;
  }

  /** The engine's configuration (read-only). */
  get config(): AutomationConfig {
    return this.runtime.config;
  }

  /** The registry of optional services (notifications, weather, custom ones). */
  get services(): ServiceRegistryApi {
    return this.runtime.services;
  }

  /** The Zigbee device registry, or null when DEVICE_REGISTRY_ENABLED is off. */
  get deviceRegistry(): DeviceRegistryApi | null {
    return this.runtime.deviceRegistry;
  }

  /**
   * The current time from the engine's clock. Use it instead of `Date.now()`, so that the
   * test kit's `advance()` moves it along with cron triggers and timers.
   */
  now(): Date {
    return this.runtime.clock.now();
  }

  /**
   * Calls `callback` once, `ms` milliseconds from now, unless cancelled first. Unlike a raw
   * `setTimeout`, the engine clears it when the automation stops or is reloaded, and it runs
   * on the test kit's fake time. Errors thrown by `callback` are logged.
   */
  after(ms: number, callback: () => unknown): ScheduledTimer {
    return this.runtime.timers.after(ms, callback);
  }

  /** Calls `callback` every `ms` milliseconds until cancelled, stopped or reloaded (see {@link Automation.after}). */
  every(ms: number, callback: () => unknown): ScheduledTimer {
    return this.runtime.timers.every(ms, callback);
  }

  /**
   * Sends a push notification through the `notifications` service. Without one, logs a
   * warning and does nothing (resolves undefined). With Hearth's ntfy service it never
   * rejects: it resolves `{ ok: false, code, error }` when the message could not be sent.
   *
   * @example
   * ```ts
   * const sent = await this.notify({ channel: "alarm", title: "Freezer", message: "Door open", priority: "urgent" });
   * if (sent && !sent.ok) this.logger.warn("Could not warn anyone", { error: sent.error });
   * ```
   */
  async notify(options: NotificationOptions): Promise<NotificationResult | undefined> {
    const service = this.runtime.services.get<NotificationService>("notifications");
    if (!service) {
      this.runtime.logger.warn("notify() called but no notifications service is registered; nothing sent", {
        title: options.title,
      });
      return undefined;
    }
    return (await service.send(options)) ?? undefined;
  }

  /**
   * The service registered under `key`; throws ServiceNotAvailableError when absent. The
   * well-known keys are typed without a type argument (`this.require("weather").daily(1)`).
   */
  require<K extends keyof KnownServices>(key: K): KnownServices[K];
  require<T>(key: string): T;
  require<T>(key: string): T {
    const service = this.runtime.services.get<T>(key);
    if (service === null || service === undefined) {
      throw new ServiceNotAvailableError(`Service "${key}" is not registered (automation "${this.name}")`);
    }
    return isAutomationScoped(service) ? (service[SCOPE_TO_AUTOMATION](this.name) as T) : service;
  }

  /** @internal Called by the engine before wiring triggers. */
  [ATTACH_RUNTIME](runtime: AutomationRuntime): void {
    this.#runtime = runtime;
  }

  private get runtime(): AutomationRuntime {
    if (!this.#runtime) {
      throw new AutomationNotRegisteredError(
        `Automation "${this.name}" used an engine member before the engine registered it (e.g. in its constructor)`,
      );
    }
    return this.#runtime;
  }
}

/** A class (not an instance) that extends some copy of {@link Automation}. */
export type AutomationClass = new () => Automation;

/** True when `value` is a class branded as an automation, whichever copy of the package defined it. */
export function isAutomationClass(value: unknown): value is AutomationClass {
  return typeof value === "function" && (value as unknown as Record<symbol, unknown>)[AUTOMATION_BRAND] === true;
}

/** True when `value` is an instance of a branded automation class. */
export function isAutomationInstance(value: unknown): value is Automation {
  return typeof value === "object" && value !== null && isAutomationClass((value as object).constructor);
}

/** Automation names are kebab-case: lowercase letters and digits in dash-separated words. */
export function isKebabCase(name: unknown): name is string {
  return typeof name === "string" && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name);
}
