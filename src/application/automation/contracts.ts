/**
 * The engine's ports by their former import path. They live in src/ports now (mqtt-bus,
 * state-store, automation-catalog, device-registry, engine-services); this file only
 * re-exports them so that code written against the old path keeps compiling.
 */
export type { NotificationOptions } from "../../domain/automation/notification.js";
export type {
  AutomationInfo,
  AutomationManagerApi,
  AutomationStats,
  RunTrace,
  TraceSettings,
  TriggerDescription,
  TriggerRejection,
  TriggerResult,
  TypeDiagnostic,
  WebhookTarget,
} from "../../ports/automation-catalog.js";
export type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "../../ports/device-registry.js";
export type { CoreContext, ServicePlugin, ServiceRegistryApi } from "../../ports/engine-services.js";
export type { MqttHandler, MqttServiceApi, PublishOptions } from "../../ports/mqtt-bus.js";
export type { StateChangeHandler, StateManagerApi } from "../../ports/state-store.js";
