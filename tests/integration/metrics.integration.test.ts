/**
 * /metrics on a real engine against a real broker: an MQTT message that runs an automation
 * moves the MQTT and automation counters, and requests show up by route template.
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
import { Automation, type Trigger } from "../../src/index.js";
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
            router.use(createMetricsRouter({ metrics, auth: createEngineAuth({ token: TOKEN, sessions: null }), public: false }));
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
    const response = await request(`http://127.0.0.1:${engine.httpPort}`).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
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
      () => (engine.manager.getAutomation("metrics-echo")?.stats.runs ?? 0) === 1 &&
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
      sample(after, 'hearth_http_request_duration_seconds_count{surface="engine",method="GET",route="/metrics",status="200"}'),
    ).to.be.at.least(1);
    expect(after).to.include("process_resident_memory_bytes");
  });
});
