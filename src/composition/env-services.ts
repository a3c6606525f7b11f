/**
 * Builds the engine services from environment variables, for `npm start` (and any
 * createEngine() caller that leaves a key out of `services`). Each builder reads its own
 * variables and returns an instance or factory, or undefined when those variables are
 * unset; resolveServices then calls the factory with what its key expects
 * (`(http, logger)`, or a context object for `relay` and `homekit`).
 */
import path from "node:path";
import { NanoleafLightPanels } from "../adapters/services/nanoleaf/nanoleaf-light-panels.js";
import { JsonFileStore } from "../adapters/state/json-file-store.js";
import { NtfyNotificationService } from "../adapters/services/ntfy/ntfy-notification-service.js";
import { ShellyRelayService } from "../adapters/services/shelly/shelly-relay-service.js";
import { CachedWeatherService } from "../adapters/services/weather/cached-weather-service.js";
import { OpenMeteoProvider } from "../adapters/services/weather/open-meteo-provider.js";
import { OpenWeatherMapProvider } from "../adapters/services/weather/openweathermap-provider.js";
import {
  type EngineServices,
  type RelayServiceFactory,
  type ServiceFactory,
  serviceKeySpellings,
} from "../application/automation/service-registry.js";
import type { NotificationService } from "../domain/automation/notification.js";
import type { LightPanelService } from "../ports/light-panel-service.js";
import type { RelayService } from "../ports/relay-service.js";
import type { WeatherService } from "../ports/weather-service.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { Config } from "./config.js";
import { homeKitFromConfig } from "./homekit-from-config.js";

/** What a builder gets: the parsed configuration (DATA_DIR for files it keeps) and the engine's clock. */
export interface EnvServiceContext {
  config: Readonly<Config>;
  clock: Clock;
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

/** Open-Meteo (default) or OpenWeatherMap, when WEATHER_LATITUDE and WEATHER_LONGITUDE are set. */
export function weatherFromConfig({ config, clock }: EnvServiceContext): ServiceFactory<WeatherService> | undefined {
  const { WEATHER_LATITUDE: latitude, WEATHER_LONGITUDE: longitude } = config;
  if (latitude === undefined || longitude === undefined) return undefined;
  const location = {
    latitude,
    longitude,
    units: config.WEATHER_UNITS,
    timeZone: config.TZ,
    baseUrl: config.WEATHER_API_URL,
  };
  return (http, logger) => {
    const provider =
      config.WEATHER_PROVIDER === "openweathermap"
        ? new OpenWeatherMapProvider(http, { ...location, apiKey: config.OPENWEATHERMAP_API_KEY ?? "" })
        : new OpenMeteoProvider(http, location);
    // The engine's clock decides what "today" is, so a test kit's fake time sees its own day.
    return new CachedWeatherService(provider, logger, {
      cacheTtlSeconds: config.WEATHER_CACHE_TTL,
      now: () => clock.now(),
    });
  };
}

/** Shelly Gen 2+ relays, when SHELLY_DEVICES lists any. */
export function shellyFromConfig({ config }: EnvServiceContext): RelayServiceFactory<RelayService> | undefined {
  if (Object.keys(config.SHELLY_DEVICES).length === 0) return undefined;
  return ({ http, mqtt, logger }) =>
    new ShellyRelayService(http, mqtt, logger, {
      devices: config.SHELLY_DEVICES,
      username: config.SHELLY_USERNAME,
      password: config.SHELLY_PASSWORD,
    });
}

/** Nanoleaf panels, when NANOLEAF_PANELS lists any; tokens from pairing are kept in DATA_DIR/nanoleaf-tokens.json. */
export function nanoleafFromConfig({ config }: EnvServiceContext): ServiceFactory<LightPanelService> | undefined {
  if (Object.keys(config.NANOLEAF_PANELS).length === 0) return undefined;
  return (http, logger) =>
    new NanoleafLightPanels(http, logger, {
      panels: config.NANOLEAF_PANELS,
      tokens: config.NANOLEAF_TOKENS,
      store: new JsonFileStore(path.join(config.DATA_DIR, "nanoleaf-tokens.json"), logger),
    });
}

export const ENV_SERVICE_BUILDERS: readonly { key: string; build: EnvServiceBuilder }[] = [
  { key: "notifications", build: ntfyFromConfig },
  { key: "weather", build: weatherFromConfig },
  { key: "relay", build: shellyFromConfig },
  { key: "lightPanels", build: nanoleafFromConfig },
  { key: "homekit", build: homeKitFromConfig },
];

/**
 * The services the environment configures, leaving out every key `given` already has
 * (under any spelling: a caller's `relays` keeps `relay` from being built as well).
 */
export function buildServicesFromConfig(
  config: Readonly<Config>,
  given: EngineServices = {},
  clock: Clock = systemClock,
): EngineServices {
  const services: EngineServices = {};
  for (const { key, build } of ENV_SERVICE_BUILDERS) {
    if (serviceKeySpellings(key).some((spelling) => given[spelling] !== undefined && given[spelling] !== null))
      continue;
    const service = build({ config, clock });
    if (service !== undefined) services[key] = service;
  }
  return services;
}
