/**
 * /metrics on a real engine against a real broker: an MQTT message that runs an automation
 * moves the MQTT and automation counters, and requests show up by route template. Then the
 * whole process (startHearth with METRICS_ENABLED) against a real database: both HTTP
 * surfaces are timed by route template and the inventory gauges follow the data.
 */
import { Writable } from "node:stream";
import { expect } from "chai";
import express from "express";
import mqtt from "mqtt";
import request from "supertest";
import { createEngineAuth } from "../../src/adapters/http/engine/engine-auth.js";
import { createLogger } from "../../src/adapters/logging/winston-logger.js";
import { createMetrics, type Metrics } from "../../src/adapters/services/metrics/metrics.js";
import { createMetricsRouter } from "../../src/adapters/services/metrics/metrics-router.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import type { RunningHearth } from "../../src/composition/hearth.js";
import { Automation, type Trigger } from "../../src/index.js";
import { startTestHearth, type TestHearth } from "../support/test-hearth.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";

const TOKEN = "metrics-test-token";

function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("metrics on a running engine", function () {
  this.timeout(60_000);
  let broker: TestBroker;
  let engine: Engine;
  let metrics: Metrics;
  let publisher: mqtt.MqttClient;
  const prefix = uniqueTopicPrefix("metrics");

  class Echo extends Automation {
    readonly name = "metrics-echo";
    readonly triggers: Trigger[] = [{ type: "mqtt", topic: `${prefix}/in` }];
    async execute(): Promise<void> {
      this.mqtt.publish(`${prefix}/out`, { echoed: true });
    }
  }

  class Failing extends Automation {
    readonly name = "metrics-failing";
    readonly triggers: Trigger[] = [{ type: "mqtt", topic: `${prefix}/fail` }];
    async execute(): Promise<void> {
      throw new Error("expected failure");
    }
  }

  before(async () => {
    broker = await acquireBroker("metrics");
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const { logger } = createLogger({ level: "info", json: true, stream: sink });
    engine = createEngine({
      automationsDir: new URL("./fixtures/no-automations/", import.meta.url).pathname,
      logger,
      httpPort: 0,
      httpHost: "127.0.0.1",
      config: { MQTT_HOST: broker.host, MQTT_PORT: broker.port, DEVICE_REGISTRY_ENABLED: false, HTTP_TOKEN: TOKEN },
      routes: [
        {
          path: "/",
          router: (running: Engine) => {
            metrics = createMetrics({
              mqtt: running.mqtt,
              manager: running.manager,
              logger,
              inventoryCounts: async () => ({ households: 1, users: 2, activeItems: 3 }),
            });
            const router = express.Router();
            router.use(metrics.httpMiddleware("engine"));
            router.use(
              createMetricsRouter({ metrics, auth: createEngineAuth({ token: TOKEN, sessions: null }), public: false }),
            );
            return router;
          },
        },
      ],
    });
    await engine.start();
    await engine.manager.register(new Echo());
    await engine.manager.register(new Failing());
    await until(() => engine.mqtt.isConnected, "MQTT connection");
    publisher = await mqtt.connectAsync(broker.url);
  });

  after(async () => {
    await publisher?.endAsync();
    metrics?.stop();
    await engine?.stop();
    await broker?.release();
  });

  const scrape = async () => {
    const response = await request(`http://127.0.0.1:${engine.httpPort}`)
      .get("/metrics")
      .set("Authorization", `Bearer ${TOKEN}`);
    expect(response.status).to.equal(200);
    return response.text;
  };

  it("requires the token", async () => {
    const response = await request(`http://127.0.0.1:${engine.httpPort}`).get("/metrics");
    expect(response.status).to.equal(401);
  });

  it("counts MQTT traffic and automation runs, errors and durations", async () => {
    const before = await scrape();
    const received = sample(before, "hearth_mqtt_messages_received_total") ?? 0;
    const published = sample(before, "hearth_mqtt_messages_published_total") ?? 0;
    expect(sample(before, "hearth_mqtt_connected")).to.equal(1);
    expect(sample(before, 'hearth_automation_runs_total{automation="metrics-echo"}')).to.equal(0);

    await publisher.publishAsync(`${prefix}/in`, JSON.stringify({ n: 1 }));
    await publisher.publishAsync(`${prefix}/fail`, JSON.stringify({ n: 2 }));
    await until(
      () =>
        (engine.manager.getAutomation("metrics-echo")?.stats.runs ?? 0) === 1 &&
        (engine.manager.getAutomation("metrics-failing")?.stats.errors ?? 0) === 1,
      "both automations to run",
    );

    const after = await scrape();
    expect(sample(after, "hearth_mqtt_messages_received_total")).to.be.at.least(received + 2);
    expect(sample(after, "hearth_mqtt_messages_published_total")).to.be.at.least(published + 1);
    expect(sample(after, 'hearth_automation_runs_total{automation="metrics-echo"}')).to.equal(1);
    expect(sample(after, 'hearth_automation_errors_total{automation="metrics-echo"}')).to.equal(0);
    expect(sample(after, 'hearth_automation_runs_total{automation="metrics-failing"}')).to.equal(1);
    expect(sample(after, 'hearth_automation_errors_total{automation="metrics-failing"}')).to.equal(1);
    expect(sample(after, 'hearth_automation_duration_seconds_count{automation="metrics-echo"}')).to.equal(1);
    expect(sample(after, "hearth_inventory_active_items")).to.equal(3);
    expect(
      sample(
        after,
        'hearth_http_request_duration_seconds_count{surface="engine",method="GET",route="/metrics",status="200"}',
      ),
    ).to.be.at.least(1);
    expect(after).to.include("process_resident_memory_bytes");
  });
});

describe("metrics of the whole process (startHearth)", function () {
  this.timeout(60_000);
  let running: TestHearth;
  let hearth: RunningHearth;

  before(async () => {
    running = await startTestHearth("metrics process", {
      AUTOMATIONS_DIR: new URL("./fixtures/no-automations/", import.meta.url).pathname,
      DEVICE_REGISTRY_ENABLED: "false",
      METRICS_ENABLED: "true",
      HTTP_TOKEN: TOKEN,
    });
    hearth = running.hearth;
  });

  after(async () => {
    await running?.release();
  });

  const scrape = async () => {
    const response = await request(`http://127.0.0.1:${hearth.httpPort}`)
      .get("/metrics")
      .set("Authorization", `Bearer ${TOKEN}`);
    expect(response.status).to.equal(200);
    return response.text;
  };
  const httpCount = (text: string, labels: string) =>
    sample(text, `hearth_http_request_duration_seconds_count{${labels}}`) ?? 0;

  it("times both HTTP surfaces by route template and moves the inventory gauges", async () => {
    const api = request(`http://127.0.0.1:${hearth.apiPort}/api/v1`);
    const before = await scrape();
    expect(sample(before, "hearth_inventory_households")).to.equal(0);
    expect(sample(before, "hearth_inventory_active_items")).to.equal(0);

    const registered = await api
      .post("/auth/register")
      .send({ email: "gauges@example.com", password: "correct horse", name: "G" });
    expect(registered.status).to.equal(201);
    const auth = { Authorization: `Bearer ${registered.body.accessToken}` };
    const household = await api.post("/households").set(auth).send({ name: "Home" });
    const hid: string = household.body.id;
    const freezer = await api.post(`/households/${hid}/freezers`).set(auth).send({ name: "Chest" });
    const compartment = await api
      .post(`/households/${hid}/freezers/${freezer.body.id}/compartments`)
      .set(auth)
      .send({ name: "Top" });
    const item = await api
      .post(`/households/${hid}/items`)
      .set(auth)
      .send({ name: "Peas", quantity: 1, freezerId: freezer.body.id, compartmentId: compartment.body.id });
    expect(item.status).to.equal(201);
    expect((await api.get(`/households/${hid}/items/${item.body.id}`).set(auth)).status).to.equal(200);
    expect((await api.get(`/households/${hid}/items/${item.body.id}`)).status).to.equal(401);
    expect((await request(`http://127.0.0.1:${hearth.httpPort}`).get("/api/status")).status).to.equal(401);
    expect(
      (
        await request(`http://127.0.0.1:${hearth.httpPort}`)
          .get("/api/automations/none")
          .set("Authorization", `Bearer ${TOKEN}`)
      ).status,
    ).to.equal(404);

    const after = await scrape();
    expect(sample(after, "hearth_inventory_households")).to.equal(1);
    expect(sample(after, "hearth_inventory_users")).to.equal(1);
    expect(sample(after, "hearth_inventory_active_items")).to.equal(1);
    const inventory = (method: string, route: string, status: number) =>
      httpCount(after, `surface="inventory",method="${method}",route="${route}",status="${status}"`);
    expect(inventory("POST", "/api/v1/households/:hid/items", 201)).to.equal(1);
    expect(inventory("GET", "/api/v1/households/:hid/items/:iid", 200)).to.equal(1);
    expect(inventory("GET", "/api/v1/households/:hid/items/*", 401)).to.equal(1);
    expect(inventory("POST", "/api/v1/households/:hid/freezers/:fid/compartments", 201)).to.equal(1);
    const engine = (method: string, route: string, status: number) =>
      httpCount(after, `surface="engine",method="${method}",route="${route}",status="${status}"`);
    expect(engine("GET", "/api/*", 401)).to.equal(1);
    expect(engine("GET", "/api/automations/:name", 404)).to.equal(1);
    expect(engine("GET", "/metrics", 200)).to.be.at.least(1);
    // Ids never become label values: one series per route, not per household or item.
    expect(after).to.not.include(hid);
    expect(after).to.not.include(item.body.id);
  });
});
