/**
 * The real engine for the browser tests: createEngine against a real broker, with the
 * debug API and the web UI mounted the way the composition root mounts them.
 */
import { Writable } from "node:stream";
import mqtt from "mqtt";
import { SessionStore } from "../../../src/adapters/http/engine/session-store.js";
import { createLogger } from "../../../src/adapters/logging/winston-logger.js";
import { createMetrics } from "../../../src/adapters/services/metrics/metrics.js";
import { createEngine, type Engine } from "../../../src/composition/create-engine.js";
import { engineRoutes } from "../../../src/composition/engine-routes.js";
import { mountStatusSurfaces } from "../../../src/composition/status-surfaces.js";
import { acquireBroker, uniqueTopicPrefix } from "../../support/test-servers.js";
import type { EngineHarness } from "./harness.js";
import { builtWebApp } from "./web-build.js";

const AUTOMATIONS_DIR = new URL("../fixtures/ui-automations/", import.meta.url).pathname;

const DEVICES = [
  { ieee_address: "0x00124b0000000001", friendly_name: "Coordinator", type: "Coordinator" },
  {
    ieee_address: "0x00158d0001a2b3c4",
    friendly_name: "porch-motion",
    type: "EndDevice",
    power_source: "Battery",
    interview_completed: true,
    supported: true,
    definition: { model: "RTCGQ11LM", vendor: "Aqara", description: "Motion sensor" },
  },
  {
    ieee_address: "0x0017880104e45521",
    friendly_name: "living-room-lamp",
    type: "Router",
    power_source: "Mains (single phase)",
    interview_completed: true,
    supported: true,
    definition: { model: "9290022166", vendor: "Philips", description: "Hue white and color ambiance E26/E27" },
  },
];

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface RealEngineOptions {
  /** DEVICE_REGISTRY_ENABLED (default true). */
  deviceRegistry?: boolean;
}

/** `token` undefined runs the engine without HTTP_TOKEN (no login, open API). */
export async function startRealEngine(
  token: string | undefined,
  options: RealEngineOptions = {},
): Promise<EngineHarness> {
  const registryEnabled = options.deviceRegistry ?? true;
  const broker = await acquireBroker("web-ui e2e");
  const topicPrefix = uniqueTopicPrefix("webui");
  const zigbeePrefix = `${topicPrefix}/z2m`;
  process.env.HEARTH_E2E_TOPIC_PREFIX = topicPrefix;

  // Engine logs go to the ring buffer the Logs section reads, not to the test output.
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const { logger, buffer } = createLogger({ level: "debug", json: true, stream: sink });
  const sessions = new SessionStore();

  const engine: Engine = createEngine({
    automationsDir: AUTOMATIONS_DIR,
    logger,
    logBuffer: buffer,
    httpPort: 0,
    httpHost: "127.0.0.1",
    config: {
      MQTT_HOST: broker.host,
      MQTT_PORT: broker.port,
      HTTP_TOKEN: token,
      ZIGBEE2MQTT_PREFIX: zigbeePrefix,
      DEVICE_REGISTRY_ENABLED: registryEnabled,
      DEVICE_REGISTRY_PERSIST: false,
      STATE_PERSIST: false,
      WEB_UI_ENABLED: true,
      METRICS_ENABLED: true,
      METRICS_PUBLIC: false,
      WEB_APP_DIR: builtWebApp(),
    },
    // The debug API and webhooks exactly as the composition root mounts them.
    routes: engineRoutes({ version: "e2e", sessions, ...(token ? { token } : {}) }),
  });
  const metrics = createMetrics({ mqtt: engine.mqtt, manager: engine.manager, logger, defaultMetrics: false });
  mountStatusSurfaces(engine, { sessions, metrics });

  // A Zigbee2MQTT stand-in: the retained device list and a state update for the motion sensor.
  const bridge = await mqtt.connectAsync(broker.url, { clientId: `hearth-e2e-bridge-${Date.now()}` });
  await bridge.publishAsync(`${zigbeePrefix}/bridge/devices`, JSON.stringify(DEVICES), { retain: true, qos: 1 });

  await engine.start();
  await until(() => engine.mqtt.isConnected, "engine MQTT connection");
  if (registryEnabled) {
    await until(() => (engine.deviceRegistry?.getDevices().length ?? 0) === 2, "device list");
    const state = (device: string, payload: Record<string, unknown>) =>
      bridge.publishAsync(`${zigbeePrefix}/${device}`, JSON.stringify(payload), { qos: 1 });
    await state("porch-motion", { occupancy: true, battery: 91 });
    await state("porch-motion", { illuminance: 12, linkquality: 87 });
    await state("living-room-lamp", { state: "ON", brightness: 180, color_temp: 370 });
    await until(() => engine.deviceRegistry?.getDeviceState("porch-motion")?.illuminance === 12, "merged device state");
    await until(() => engine.deviceRegistry?.getDeviceState("living-room-lamp") !== null, "lamp state");
  }

  const runs = (name: string) => engine.manager.getAutomation(name)?.stats.runs ?? 0;
  return {
    source: `real engine (createEngine) against ${broker.source} broker ${broker.url}${registryEnabled ? "" : ", device registry off"}`,
    baseUrl: `http://127.0.0.1:${engine.httpPort}`,
    token: token ?? "",
    stateGet: (key) => engine.state.get(key),
    runs,
    async setMqttConnected(connected) {
      if (connected) {
        await engine.mqtt.connect();
        await until(() => engine.mqtt.isConnected, "MQTT reconnect");
      } else {
        await engine.mqtt.disconnect();
      }
    },
    log: (msg) => logger.info(msg, { automation: "porch-light" }),
    async stop() {
      await engine.stop();
      metrics.stop();
      // Clear the retained device list so the shared broker is left as it was found.
      await bridge.publishAsync(`${zigbeePrefix}/bridge/devices`, "", { retain: true, qos: 1 });
      await bridge.endAsync();
      await broker.release();
    },
  };
}
