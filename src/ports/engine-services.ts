/**
 * The registry of optional services (notifications, weather, relays, ..., custom) and the
 * lifecycle hooks a service plugin may have.
 */
import type { NotificationService } from "../domain/automation/notification.js";
import type { HttpClient } from "./http-client.js";
import type { LightPanelService } from "./light-panel-service.js";
import type { Logger } from "./logger.js";
import type { RelayService } from "./relay-service.js";
import type { RouteRegistrar } from "./route-registrar.js";
import type { WeatherService } from "./weather-service.js";

/** What every service plugin receives at start. */
export interface CoreContext {
  /** The shared outbound HTTP client. */
  http: HttpClient;
  /** A child logger scoped to the plugin (`{ service: serviceKey }`). */
  logger: Logger;
}

/**
 * A service with a lifecycle the engine manages. Plain objects without these hooks can
 * be registered too; the registry then only stores them.
 */
export interface ServicePlugin {
  readonly serviceKey: string;
  /**
   * Run only on the instance leading the engine under hot standby: a service that announces
   * itself on the network or listens for devices (the HomeKit bridge) must exist once, not
   * once per instance. It starts when this instance takes the lease and stops when it loses
   * it; without a lease it runs like any other.
   */
  readonly leaderOnly?: boolean;
  onStart?(context: CoreContext): Promise<void> | void;
  onStop?(): Promise<void> | void;
  /** Mounts custom routes on the engine HTTP server (an express app satisfies RouteRegistrar). */
  registerRoutes?(app: RouteRegistrar): void;
}

/**
 * The well-known service keys and their types, so `services.get("weather")` and
 * `services.use("relay", (relay) => …)` are typed without a type argument. Other keys take
 * one (`services.get<MyService>("mine")`). Open for declaration merging.
 */
export interface KnownServices {
  notifications: NotificationService;
  weather: WeatherService;
  relay: RelayService;
  relays: RelayService;
  relayService: RelayService;
  lightPanels: LightPanelService;
}

export interface ServiceRegistryApi {
  register(key: string, service: unknown): void;
  get<K extends keyof KnownServices>(key: K): KnownServices[K] | null;
  get<T = unknown>(key: string): T | null;
  getOrThrow<K extends keyof KnownServices>(key: K): KnownServices[K];
  getOrThrow<T = unknown>(key: string): T;
  /** Runs fn with the service when present; does nothing when absent. */
  use<K extends keyof KnownServices, R = void>(key: K, fn: (service: KnownServices[K]) => R): R | undefined;
  use<T = unknown, R = void>(key: string, fn: (service: T) => R): R | undefined;
  has(key: string): boolean;
  keys(): string[];
  /** Starts the plugins of `scope` ("all" by default) that are not running yet. */
  startAll(context: CoreContext, scope?: ServiceScope): Promise<void>;
  /** Stops the running plugins of `scope` ("all" by default). */
  stopAll(scope?: ServiceScope): Promise<void>;
}

/**
 * Which plugins a lifecycle call concerns: all of them; those that run on every instance;
 * or those that run on the engine leader only ({@link ServicePlugin.leaderOnly}).
 */
export type ServiceScope = "all" | "every-instance" | "leader-only";
