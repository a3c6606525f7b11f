/**
 * Hearth's public library API: write automations by extending {@link Automation}, or
 * embed the engine with {@link createEngine}.
 *
 * @example
 * ```ts
 * import { Automation, createEngine, type Trigger, type TriggerContext } from "hearth";
 * ```
 * @packageDocumentation
 */
export {
  Automation,
  AUTOMATION_BRAND,
  type AutomationClass,
  type AutomationConfig,
  AutomationNotRegisteredError,
  isAutomationClass,
  type RunMode,
  ServiceNotAvailableError,
} from "./application/automation/sdk/automation.js";
export type { ScheduledTimer } from "./application/automation/automation-timers.js";
/** Triggers, the contexts execute() receives, and the `inventory` trigger. */
export type * from "./domain/automation/trigger.js";
export type { DeviceState, ZigbeeDevice } from "./domain/automation/zigbee-device.js";
/** Inventory events as `inventory` triggers, MQTT and the outbox carry them. */
export {
  INVENTORY_EVENT_TYPES,
  type InventoryActor,
  type InventoryEvent,
  type InventoryEventCategory,
  type InventoryEventData,
  type InventoryEventItem,
  type InventoryEventShoppingEntry,
  type InventoryEventOf,
  type InventoryEventType,
} from "./domain/inventory/inventory-event.js";
/** The `inventory` service automations get with `this.require<InventoryService>("inventory")`. */
export type {
  ExpiringItemsOptions,
  FreezerCount,
  HouseholdSummary,
  InventoryService,
  ShoppingListAddition,
  ShoppingListEntry,
  ShoppingUnit,
} from "./application/inventory/automation-inventory-service.js";
export type { FreezerItemView as InventoryItem } from "./domain/inventory/freezer-item.js";
/** The units an item's quantity is counted in, and the per-category figures of a summary. */
export { ITEM_UNITS, type ItemUnit } from "./domain/inventory/item-unit.js";
export type { CategorySummary } from "./ports/inventory-summaries.js";
export type {
  NotificationAction,
  NotificationOptions,
  NotificationPriorityName,
  NotificationResult,
  NotificationService,
} from "./domain/automation/notification.js";
export { ServiceCallError, type ServiceErrorCode } from "./domain/automation/service-errors.js";
export { NonFiniteStateValueError } from "./domain/automation/state-value.js";
export { type WebhookRefusal, WebhookRefusedError } from "./domain/automation/webhook-refusal.js";
/** One problem with one field, as error bodies list it under `details`. */
export type { ErrorDetail } from "./domain/shared/domain-error.js";
// The service ports, with the keys automations `require` them by.
export * from "./ports/relay-service.js";
export * from "./ports/weather-service.js";
export * from "./ports/light-panel-service.js";
export type { ServiceHealth, ServiceHealthReport, ServiceHealthReporter } from "./ports/service-health.js";
// The built-in services, for createEngine({ services }) callers who build them in code.
export { NtfyNotificationService, type NtfySettings } from "./adapters/services/ntfy/ntfy-notification-service.js";
export { CachedWeatherService, type CachedWeatherOptions } from "./adapters/services/weather/cached-weather-service.js";
export { OpenMeteoProvider, type OpenMeteoSettings } from "./adapters/services/weather/open-meteo-provider.js";
export {
  OpenWeatherMapProvider,
  type OpenWeatherMapSettings,
} from "./adapters/services/weather/openweathermap-provider.js";
export {
  type ShellyDeviceConfig,
  type ShellyRelayOptions,
  ShellyRelayService,
} from "./adapters/services/shelly/shelly-relay-service.js";
export { NanoleafLightPanels, type NanoleafSettings } from "./adapters/services/nanoleaf/nanoleaf-light-panels.js";
export { topicMatches } from "./domain/automation/topic-filter.js";
export type {
  AutomationInfo,
  AutomationManagerApi,
  AutomationStats,
  RunTrace,
  TriggerDescription,
  TriggerRejection,
  TriggerResult,
  TypeDiagnostic,
} from "./ports/automation-catalog.js";
export type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "./ports/device-registry.js";
export type { CoreContext, KnownServices, ServicePlugin, ServiceRegistryApi } from "./ports/engine-services.js";
export type { MqttHandler, MqttServiceApi, PublishOptions } from "./ports/mqtt-bus.js";
export type { StateChangeHandler, StateManagerApi } from "./ports/state-store.js";
export {
  DuplicateServiceError,
  type EngineServices,
  type HomeKitFactory,
  type HomeKitFactoryContext,
  type RelayServiceFactory,
  type RelayServiceFactoryContext,
  type ServiceFactory,
  ServiceNotFoundError,
  type ServiceRegistry,
} from "./application/automation/service-registry.js";
export type { StateManager, StateManagerOptions } from "./application/automation/state-manager.js";
// The engine's components under the spec's names, for typing what `createEngine()` returns
// (`engine.mqtt`, `engine.manager`, ...); automations see them through the *Api interfaces.
export type { AutomationManager } from "./application/automation/automation-manager.js";
export type { DeviceRegistry } from "./application/automation/device-registry.js";
export type { MqttService } from "./application/automation/mqtt-service.js";
export type { CronScheduler } from "./adapters/scheduling/cron-scheduler.js";
export type { EngineHttpServer } from "./adapters/http/engine/engine-http-server.js";
export { HttpRequestFailedError } from "./adapters/http-client/fetch-http-client.js";
export type { HttpClient, HttpMethod, HttpRequestOptions, HttpResponse } from "./ports/http-client.js";
export type { LogEntry, LogQuery } from "./ports/log-buffer.js";
export type { Logger, LogFields, LogLevelName, LogMethod } from "./ports/logger.js";
export type { RouteHandler, RouteRegistrar } from "./ports/route-registrar.js";
export {
  createEngine,
  defaultEngineRoutes,
  type DeviceRegistryEngineOptions,
  type Engine,
  type EngineOptions,
  type EngineRoute,
} from "./composition/create-engine.js";
export { engineRoutes, type EngineRoutesOptions } from "./composition/engine-routes.js";
export { type Config, ConfigError } from "./composition/config.js";
/**
 * The HomeKit bridge (service key `homekit`): Zigbee2MQTT devices and relays as HomeKit
 * accessories over hap-nodejs. `npm start` builds it from HOMEKIT_*; library users pass
 * `services: { homekit: (context) => new HomeKitBridge({ ...context, dataDir }) }`.
 */
export {
  HomeKitBridge,
  type HomeKitBridgeOptions,
  HomeKitPortInUseError,
  type HomeKitStatus,
} from "./adapters/services/homekit/homekit-bridge.js";
export {
  HOMEKIT_ADVERTISERS,
  HOMEKIT_DEFAULT_PORT,
  type HomeKitAdvertiser,
} from "./adapters/services/homekit/homekit-defaults.js";
export type { HomeKitBridgeApi, HomeKitBridgeInfo, HomeKitReport } from "./ports/homekit-bridge.js";
