/**
 * Builds the engine services from environment variables, for `npm start` (and any
 * createEngine() caller that leaves a key out of `services`). Each builder reads its own
 * variables and returns an instance or factory, or undefined when those variables are
 * unset; resolveServices then calls the factory with what its key expects
 * (`(http, logger)`, or a context object for `relay` and `homekit`).
 */
import { type EngineServices, serviceKeySpellings } from "../application/automation/service-registry.js";
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
export const ENV_SERVICE_BUILDERS: readonly { key: string; build: EnvServiceBuilder }[] = [
  // notifications, weather, relay, lightPanels: filled in as their adapters land.
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
