/**
 * Hearth's test kit for automations: `import { createTestEngine } from "hearth/testing"`.
 * Runs automations in-process against a fake MQTT bus, a fake clock, state, simulated
 * Zigbee2MQTT devices and recording services, with no broker, network or real time. Works
 * under mocha, node:test and vitest (assertions throw node's AssertionError). See
 * docs/testing-automations.md.
 *
 * @packageDocumentation
 */
export {
  createTestEngine,
  FakeHttpClient,
  FakeLightPanels,
  type FakeLightPanelState,
  type FakeRelayDevice,
  FakeRelays,
  FakeWeather,
  type FakeWeatherConditions,
  type FakeHttpAnswer,
  parseDuration,
  type PublishedMessage,
  type RecordedRequest,
  type ServiceCall,
  type SimulatedDevice,
  type SimulatedDevices,
  type TestEngine,
  type TestEngineOptions,
  type TestWebhookRequest,
  type TestWebhookResponse,
} from "./composition/test-engine.js";
export type { RecordedLogEntry } from "./adapters/logging/memory-logger.js";
export type { AutomationInfo, RunTrace, TriggerRejection, TriggerResult } from "./ports/automation-catalog.js";
