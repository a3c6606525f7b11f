/**
 * The registry of optional services (notifications, weather, relays, ..., custom) and the
 * lifecycle hooks a service plugin may have.
 */
import type { HttpClient } from "./http-client.js";
import type { Logger } from "./logger.js";
import type { RouteRegistrar } from "./route-registrar.js";

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
