import { expect } from "chai";
import request from "supertest";
import { SessionStore } from "../../../src/adapters/http/engine/session-store.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { createMetrics, type Metrics } from "../../../src/adapters/services/metrics/metrics.js";
import { createEngine, type Engine } from "../../../src/composition/create-engine.js";
import { mountStatusSurfaces } from "../../../src/composition/status-surfaces.js";
import { FakeMqttClient } from "../../support/engine-fakes.js";

const AUTOMATIONS_DIR = new URL("../../integration/fixtures/no-automations/", import.meta.url).pathname;
const TOKEN = "status-surfaces-token";

describe("mountStatusSurfaces", () => {
  let engine: Engine | undefined;
  let metrics: Metrics | undefined;

  afterEach(async () => {
    await engine?.stop();
    metrics?.stop();
    engine = undefined;
    metrics = undefined;
  });

  function build(options: { httpPort?: number; metricsPublic?: boolean; logger?: MemoryLogger }): Engine {
    const logger = options.logger ?? new MemoryLogger();
    engine = createEngine({
      automationsDir: AUTOMATIONS_DIR,
      logger,
      mqttClient: new FakeMqttClient(),
      handleSignals: false,
      ...(options.httpPort !== undefined ? { httpPort: options.httpPort, httpHost: "127.0.0.1" } : {}),
      config: {
        HTTP_PORT: 0,
        HTTP_TOKEN: TOKEN,
        DEVICE_REGISTRY_ENABLED: false,
        WEB_UI_ENABLED: true,
        METRICS_ENABLED: true,
        METRICS_PUBLIC: options.metricsPublic ?? false,
      },
    });
    metrics = createMetrics({ mqtt: engine.mqtt, manager: engine.manager, logger, defaultMetrics: false });
    mountStatusSurfaces(engine, { sessions: new SessionStore(), metrics });
    return engine;
  }

  it("mounts /metrics behind HTTP_TOKEN and the web UI at /status", async () => {
    const running = build({ httpPort: 0 });
    await running.start();
    const server = request(`http://127.0.0.1:${running.httpPort}`);
    expect((await server.get("/metrics")).status).to.equal(401);
    const scrape = await server.get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
    expect(scrape.status).to.equal(200);
    expect(scrape.text).to.include("hearth_mqtt_connected");
    const page = await server.get("/status");
    expect(page.status).to.equal(303);
    expect(page.headers.location).to.equal("/status/login");
  });

  it("serves /metrics without the token when METRICS_PUBLIC is set", async () => {
    const running = build({ httpPort: 0, metricsPublic: true });
    await running.start();
    expect((await request(`http://127.0.0.1:${running.httpPort}`).get("/metrics")).status).to.equal(200);
  });

  it("warns that /metrics is not served when HTTP_PORT=0 turns the engine HTTP server off", () => {
    const logger = new MemoryLogger();
    build({ logger });
    expect(logger.at("warn").map((entry) => entry.msg)).to.include(
      "METRICS_ENABLED is set but HTTP_PORT=0 turns the engine HTTP server off: /metrics is not served",
    );
  });
});
