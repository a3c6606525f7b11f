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
  ServiceNotAvailableError,
} from "./application/automation/sdk/automation.js";
export type {
  CronTrigger,
  CronTriggerContext,
  DeviceJoinedTrigger,
  DeviceJoinedTriggerContext,
  DeviceLeftTrigger,
  DeviceLeftTriggerContext,
  DeviceStateTrigger,
  DeviceStateTriggerContext,
  MqttPayload,
  MqttTrigger,
  MqttTriggerContext,
  StateTrigger,
  StateTriggerContext,
  Trigger,
  TriggerContext,
  TriggerType,
  WebhookMethod,
  WebhookSecret,
  WebhookTrigger,
  WebhookTriggerContext,
} from "./domain/automation/trigger.js";
export type { DeviceState, ZigbeeDevice } from "./domain/automation/zigbee-device.js";
export type { NotificationOptions, NotificationService } from "./domain/automation/notification.js";
export { topicMatches } from "./domain/automation/topic-filter.js";
export type { AutomationInfo, AutomationManagerApi, AutomationStats, TriggerDescription } from "./ports/automation-catalog.js";
export type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "./ports/device-registry.js";
export type { CoreContext, ServicePlugin, ServiceRegistryApi } from "./ports/engine-services.js";
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
