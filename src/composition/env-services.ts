/**
 * Builds the engine services from environment variables, for `npm start` (and any
 * createEngine() caller that leaves a key out of `services`). Each builder reads its own
 * variables and returns an instance or factory, or undefined when those variables are
 * unset; resolveServices then calls the factory with what its key expects
 * (`(http, logger)`, or a context object for `relay` and `homekit`).
 */
import { NtfyNotificationService } from "../adapters/services/ntfy/ntfy-notification-service.js";
import {
  type EngineServices,
  type ServiceFactory,
  serviceKeySpellings,
} from "../application/automation/service-registry.js";
import type { NotificationService } from "../domain/automation/notification.js";
import type { Config } from "./config.js";

/** What a builder gets: the parsed configuration (DATA_DIR for files it keeps). */
export interface EnvServiceContext {
  config: Readonly<Config>;
}

/** One service built from the environment, or undefined when it is not configured. */
export type EnvServiceBuilder = (context: EnvServiceContext) => EngineServices[string] | undefined;

/**
 * The services the environment can configure, in build order. HomeKit comes after the
 * relay service so its factory receives it. To add one: write `<name>FromConfig` in its
 * own file under src/composition/ and add a row here.
 */
/** ntfy, when NTFY_TOPIC or NTFY_CHANNELS names a topic. */
export function ntfyFromConfig({ config }: EnvServiceContext): ServiceFactory<NotificationService> | undefined {
  if (!config.NTFY_TOPIC && Object.keys(config.NTFY_CHANNELS).length === 0) return undefined;
  return (http, logger) =>
    new NtfyNotificationService(http, logger, {
      url: config.NTFY_URL,
      defaultTopic: config.NTFY_TOPIC,
      channels: config.NTFY_CHANNELS,
      token: config.NTFY_TOKEN,
      username: config.NTFY_USERNAME,
      password: config.NTFY_PASSWORD,
    });
}

export const ENV_SERVICE_BUILDERS: readonly { key: string; build: EnvServiceBuilder }[] = [
  { key: "notifications", build: ntfyFromConfig },
  // HOMEKIT HOOK: { key: "homekit", build: homeKitFromConfig },
];

/**
 * The services the environment configures, leaving out every key `given` already has
 * (under any spelling: a caller's `relays` keeps `relay` from being built as well).
 */
export function buildServicesFromConfig(config: Readonly<Config>, given: EngineServices = {}): EngineServices {
  const services: EngineServices = {};
  for (const { key, build } of ENV_SERVICE_BUILDERS) {
    if (serviceKeySpellings(key).some((spelling) => given[spelling] !== undefined && given[spelling] !== null)) continue;
    const service = build({ config });
    if (service !== undefined) services[key] = service;
  }
  return services;
}
