import type { NotificationService } from "../../domain/automation/notification.js";
import { DomainError } from "../../domain/shared/domain-error.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { Logger } from "../../ports/logger.js";
import type { DeviceRegistryApi } from "../../ports/device-registry.js";
import type { CoreContext, ServicePlugin, ServiceRegistryApi, ServiceScope } from "../../ports/engine-services.js";
import type { MqttServiceApi } from "../../ports/mqtt-bus.js";
import type { RelayService } from "../../ports/relay-service.js";

/** `getOrThrow` / `require` on a key nothing was registered under. */
export class ServiceNotFoundError extends DomainError {
  readonly code = "SERVICE_NOT_FOUND";

  constructor(
    readonly key: string,
    registered: string[],
  ) {
    super(
      `Service "${key}" is not registered (registered: ${registered.length ? registered.join(", ") : "none"}). ` +
        "Pass it in createEngine({ services: { ... } }).",
    );
  }
}

/** A second `register` under a key already taken. */
export class DuplicateServiceError extends DomainError {
  readonly code = "SERVICE_ALREADY_REGISTERED";

  constructor(readonly key: string) {
    super(`A service is already registered under "${key}"; service keys must be unique.`);
  }
}

/**
 * Spellings that name the same service: `get("relays")` finds a service registered as
 * `relay` and the other way round, and registering two spellings is a duplicate.
 */
// A Map, not an object literal: keys come from URLs and automations, and `constructor` or
// `__proto__` must not find Object.prototype's members.
const KEY_ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ["relay", ["relays", "relayService"]],
  ["relays", ["relay", "relayService"]],
  ["relayService", ["relay", "relays"]],
  ["homekit", ["homeKit"]],
  ["homeKit", ["homekit"]],
]);

/** `key` and every other spelling of the same service (`relay`, `relays`, `relayService`). */
export function serviceKeySpellings(key: string): string[] {
  return [key, ...(KEY_ALIASES.get(key) ?? [])];
}

/** The router type plugins mount their routes on (express's Router, kept out of this layer). */
export type PluginRouter = Parameters<NonNullable<ServicePlugin["registerRoutes"]>>[0];

/** Whether `service` takes part in the lifecycle (has a `serviceKey`). */
export function isServicePlugin(service: unknown): service is ServicePlugin {
  return (
    typeof service === "object" &&
    service !== null &&
    typeof (service as { serviceKey?: unknown }).serviceKey === "string"
  );
}

function inScope(service: ServicePlugin, scope: ServiceScope): boolean {
  if (scope === "all") return true;
  return (service.leaderOnly === true) === (scope === "leader-only");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Holds the optional services (notifications, weather, relays, ..., custom keys) and
 * drives the lifecycle of those that are service plugins: `onStart` in registration
 * order, `onStop` in reverse.
 */
export class ServiceRegistry implements ServiceRegistryApi {
  private readonly services = new Map<string, unknown>();
  /**
   * Plugins that started and have not stopped since: a plugin whose onStart threw is not
   * stopped (it never started), and leader-only plugins come and go with the lease.
   */
  private readonly running = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** The key `key` is stored under: itself, or a registered alias of it. */
  private resolve(key: string): string | null {
    if (this.services.has(key)) return key;
    return KEY_ALIASES.get(key)?.find((alias) => this.services.has(alias)) ?? null;
  }

  register(key: string, service: unknown): void {
    if (this.resolve(key) !== null) throw new DuplicateServiceError(key);
    if (isServicePlugin(service) && service.serviceKey !== key) {
      this.logger.warn("Service registered under a key other than its serviceKey", {
        key,
        serviceKey: service.serviceKey,
      });
    }
    this.services.set(key, service);
  }

  get<T = unknown>(key: string): T | null {
    const stored = this.resolve(key);
    return stored === null ? null : (this.services.get(stored) as T);
  }

  getOrThrow<T = unknown>(key: string): T {
    const stored = this.resolve(key);
    if (stored === null) throw new ServiceNotFoundError(key, this.keys());
    return this.services.get(stored) as T;
  }

  use<T = unknown, R = void>(key: string, fn: (service: T) => R): R | undefined {
    const stored = this.resolve(key);
    if (stored === null) return undefined;
    return fn(this.services.get(stored) as T);
  }

  has(key: string): boolean {
    return this.resolve(key) !== null;
  }

  keys(): string[] {
    return [...this.services.keys()];
  }

  /**
   * Starts the plugins of `scope` not running yet, in registration order. A plugin that
   * fails is logged and skipped; the others start.
   */
  async startAll(context: CoreContext, scope: ServiceScope = "all"): Promise<void> {
    for (const [key, service] of this.services) {
      if (!isServicePlugin(service) || !inScope(service, scope) || this.running.has(key)) continue;
      const logger = context.logger.child({ service: key });
      try {
        if (typeof service.onStart === "function") await service.onStart({ http: context.http, logger });
        this.running.add(key);
        logger.debug("Service started");
      } catch (error) {
        logger.error("Service failed to start", { err: error, error: errorMessage(error) });
      }
    }
  }

  /** Stops the running plugins of `scope` in reverse registration order; one failing onStop never keeps the others running. */
  async stopAll(scope: ServiceScope = "all"): Promise<void> {
    for (const [key, service] of [...this.services].reverse()) {
      if (!isServicePlugin(service) || !inScope(service, scope) || !this.running.has(key)) continue;
      this.running.delete(key);
      if (typeof service.onStop !== "function") continue;
      try {
        await service.onStop();
      } catch (error) {
        this.logger.error("Service failed to stop", { service: key, err: error, error: errorMessage(error) });
      }
    }
  }

  /** Lets every plugin mount its routes on the engine HTTP server. A plugin that throws is logged and skipped. */
  mountRoutes(router: PluginRouter): void {
    for (const [key, service] of this.services) {
      if (!isServicePlugin(service) || typeof service.registerRoutes !== "function") continue;
      try {
        service.registerRoutes(router);
      } catch (error) {
        this.logger.error("Service failed to register its routes", {
          service: key,
          err: error,
          error: errorMessage(error),
        });
      }
    }
  }
}

/** Builds a service from the shared HTTP client and a logger scoped to the service. */
export type ServiceFactory<T = unknown> = (http: HttpClient, logger: Logger) => T;

/** What the relay-service factory receives (relays are driven over MQTT). */
export interface RelayServiceFactoryContext {
  http: HttpClient;
  mqtt: MqttServiceApi;
  logger: Logger;
}
export type RelayServiceFactory<T = unknown> = (context: RelayServiceFactoryContext) => T;

/** What the HomeKit factory receives; it can bridge Zigbee devices and relays. */
export interface HomeKitFactoryContext {
  http: HttpClient;
  logger: Logger;
  mqtt: MqttServiceApi;
  deviceRegistry: DeviceRegistryApi | null;
  /** The relay service registered under `relay` (or an alias), or null. */
  relay: RelayService | null;
  /** The same service as `relay`, under its earlier name. */
  relayService: RelayService | null;
}
export type HomeKitFactory<T = unknown> = (context: HomeKitFactoryContext) => T;

/**
 * The `services` option of createEngine: each value is a ready instance or a factory.
 * `relay` and `homekit` factories take a context object; every other key's factory
 * takes `(http, logger)`. The factory types give unannotated factory parameters their
 * types (`relay: ({ http, mqtt, logger }) => new ShellyRelayService(http, mqtt, logger, …)`).
 * Under `npm start`, keys the caller leaves out are built from environment variables.
 */
export interface EngineServices {
  /** Push notifications; `notify()` of automations uses it. */
  notifications?: NotificationService | ServiceFactory<NotificationService> | undefined;
  weather?: object | ServiceFactory<object> | undefined;
  /** The relay service; its factory takes `{ http, mqtt, logger }`. */
  relay?: object | RelayServiceFactory<object> | undefined;
  /** Another spelling of `relay`. */
  relays?: object | RelayServiceFactory<object> | undefined;
  /** Another spelling of `relay`. */
  relayService?: object | RelayServiceFactory<object> | undefined;
  lightPanels?: object | ServiceFactory<object> | undefined;
  /** The HomeKit bridge; its factory takes `{ http, logger, mqtt, deviceRegistry, relayService }`. */
  homekit?: object | HomeKitFactory<object> | undefined;
  /** Another spelling of `homekit`. */
  homeKit?: object | HomeKitFactory<object> | undefined;
  /** Custom services: instances, or factories of `(http, logger)`. */
  [key: string]: object | ServiceFactory<object> | undefined;
}

export interface ResolveServicesDeps {
  http: HttpClient;
  mqtt: MqttServiceApi;
  logger: Logger;
  deviceRegistry: DeviceRegistryApi | null;
  /** Registry to fill; a new one when omitted. */
  registry?: ServiceRegistry;
}

/** Order in which well-known keys are built: HomeKit needs the relay service. */
const WELL_KNOWN_ORDER = [
  "notifications",
  "weather",
  "relay",
  "relays",
  "relayService",
  "lightPanels",
  "homekit",
  "homeKit",
];
/** Keys whose factories take a context object instead of (http, logger); spellings users reach for. */
const RELAY_KEYS = new Set(["relay", "relays", "relayService"]);
const HOMEKIT_KEYS = new Set(["homekit", "homeKit"]);

/** A class passed where an instance or factory belongs: calling it would throw an unhelpful TypeError. */
export class ServiceClassGivenError extends DomainError {
  readonly code = "SERVICE_CLASS_GIVEN";

  constructor(readonly key: string) {
    super(`services.${key} is a class; pass an instance (new ...) or a factory function instead.`);
  }
}

function isClass(value: unknown): boolean {
  return typeof value === "function" && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * Turns createEngine's `services` option into registered services: instances are
 * registered as-is, factories are called with the arguments their key expects.
 */
export function resolveServices(services: EngineServices | undefined, deps: ResolveServicesDeps): ServiceRegistry {
  const registry = deps.registry ?? new ServiceRegistry(deps.logger.child({ module: "services" }));
  if (!services) return registry;
  const keys = [
    ...WELL_KNOWN_ORDER.filter((key) => key in services),
    ...Object.keys(services).filter((key) => !WELL_KNOWN_ORDER.includes(key)),
  ];
  for (const key of keys) {
    const entry = services[key];
    if (entry === undefined || entry === null) continue;
    if (typeof entry !== "function") {
      registry.register(key, entry);
      continue;
    }
    if (isClass(entry)) throw new ServiceClassGivenError(key);
    const logger = deps.logger.child({ service: key });
    let service: unknown;
    if (RELAY_KEYS.has(key)) {
      service = (entry as RelayServiceFactory)({ http: deps.http, mqtt: deps.mqtt, logger });
    } else if (HOMEKIT_KEYS.has(key)) {
      const relay = registry.get<RelayService>("relay");
      service = (entry as HomeKitFactory)({
        http: deps.http,
        logger,
        mqtt: deps.mqtt,
        deviceRegistry: deps.deviceRegistry,
        relay,
        relayService: relay,
      });
    } else {
      service = (entry as ServiceFactory)(deps.http, logger);
    }
    registry.register(key, service);
  }
  return registry;
}
