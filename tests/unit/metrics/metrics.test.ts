import { expect } from "chai";
import express, { type RequestHandler } from "express";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { createMetrics, type Metrics } from "../../../src/adapters/services/metrics/metrics.js";
import { createMetricsRouter } from "../../../src/adapters/services/metrics/metrics-router.js";
import type { AutomationInfo } from "../../../src/ports/automation-catalog.js";

class FakeMqtt {
  isConnected = true;
  stats = { received: 0, published: 0, reconnects: 0 };
  private readonly listeners = new Set<(connected: boolean) => void>();
  onConnectionChange(listener: (connected: boolean) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  setConnected(connected: boolean) {
    this.isConnected = connected;
    if (connected) this.stats.reconnects++;
    for (const listener of this.listeners) listener(connected);
  }
  get listenerCount() {
    return this.listeners.size;
  }
}

type RunEvent = { automation: string; durationMs: number; error?: unknown };

class FakeManager {
  private readonly listeners = new Set<(event: RunEvent) => void>();
  automations: Pick<AutomationInfo, "name">[] = [{ name: "porch-light" }, { name: "never-ran" }];
  listAutomations() {
    return this.automations as AutomationInfo[];
  }
  onRun(listener: (event: RunEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  run(event: RunEvent) {
    for (const listener of this.listeners) listener(event);
  }
}

/** Value of one sample line, e.g. `hearth_automation_runs_total{automation="x"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const denyAll: RequestHandler = (_req, res) => {
  res.status(401).json({ error: "Unauthorized" });
};

describe("metrics", () => {
  let metrics: Metrics;
  let mqtt: FakeMqtt;
  let manager: FakeManager;
  let counts: { households: number; users: number; activeItems: number };
  let countCalls: number;

  beforeEach(() => {
    mqtt = new FakeMqtt();
    manager = new FakeManager();
    counts = { households: 2, users: 3, activeItems: 17 };
    countCalls = 0;
    metrics = createMetrics({
      mqtt,
      manager,
      logger: new MemoryLogger(),
      inventoryCounts: async () => {
        countCalls++;
        return { ...counts };
      },
    });
  });

  afterEach(() => metrics.stop());

  function app(options: { public: boolean }) {
    const server = express();
    server.use(metrics.httpMiddleware("engine"));
    const api = express.Router();
    api.get("/automations/:name", (_req, res) => {
      res.json({ ok: true });
    });
    server.use("/api", api);
    server.use(createMetricsRouter({ metrics, auth: denyAll, public: options.public }));
    return server;
  }

  it("serves Prometheus text with process and Node.js metrics when public", async () => {
    const response = await request(app({ public: true })).get("/metrics");
    expect(response.status).to.equal(200);
    expect(response.headers["content-type"]).to.include("text/plain");
    expect(response.text).to.include("process_cpu_user_seconds_total");
    expect(response.text).to.include("nodejs_heap_size_total_bytes");
  });

  it("is protected by the engine auth unless public", async () => {
    const response = await request(app({ public: false })).get("/metrics");
    expect(response.status).to.equal(401);
  });

  it("moves the MQTT counters and connection gauge", async () => {
    const server = app({ public: true });
    let text = (await request(server).get("/metrics")).text;
    expect(sample(text, "hearth_mqtt_messages_received_total")).to.equal(0);
    expect(sample(text, "hearth_mqtt_connected")).to.equal(1);

    mqtt.stats.received += 5;
    mqtt.stats.published += 2;
    mqtt.setConnected(false);
    text = (await request(server).get("/metrics")).text;
    expect(sample(text, "hearth_mqtt_messages_received_total")).to.equal(5);
    expect(sample(text, "hearth_mqtt_messages_published_total")).to.equal(2);
    expect(sample(text, "hearth_mqtt_connected")).to.equal(0);
    expect(sample(text, 'hearth_mqtt_connection_changes_total{state="disconnected"}')).to.equal(1);

    mqtt.setConnected(true);
    text = (await request(server).get("/metrics")).text;
    expect(sample(text, "hearth_mqtt_reconnects_total")).to.equal(1);
    expect(sample(text, "hearth_mqtt_connected")).to.equal(1);
  });

  it("counts automation runs, errors and durations per automation", async () => {
    const server = app({ public: true });
    let text = (await request(server).get("/metrics")).text;
    expect(sample(text, 'hearth_automation_runs_total{automation="never-ran"}')).to.equal(0);

    manager.run({ automation: "porch-light", durationMs: 12 });
    manager.run({ automation: "porch-light", durationMs: 30, error: new Error("boom") });
    text = (await request(server).get("/metrics")).text;
    expect(sample(text, 'hearth_automation_runs_total{automation="porch-light"}')).to.equal(2);
    expect(sample(text, 'hearth_automation_errors_total{automation="porch-light"}')).to.equal(1);
    expect(sample(text, 'hearth_automation_duration_seconds_count{automation="porch-light"}')).to.equal(2);
    expect(sample(text, 'hearth_automation_duration_seconds_sum{automation="porch-light"}')).to.be.closeTo(0.042, 1e-9);
  });

  it("times HTTP requests by route template, not by URL", async () => {
    const server = app({ public: true });
    await request(server).get("/api/automations/porch-light");
    await request(server).get("/api/automations/other");
    await request(server).get("/no/such/page");
    const text = (await request(server).get("/metrics")).text;
    expect(
      sample(
        text,
        'hearth_http_request_duration_seconds_count{surface="engine",method="GET",route="/api/automations/:name",status="200"}',
      ),
    ).to.equal(2);
    expect(
      sample(
        text,
        'hearth_http_request_duration_seconds_count{surface="engine",method="GET",route="unmatched",status="404"}',
      ),
    ).to.equal(1);
    expect(text).to.not.include('porch-light",status');
  });

  it("reports inventory gauges with one round of counts per scrape", async () => {
    const server = app({ public: true });
    let text = (await request(server).get("/metrics")).text;
    expect(sample(text, "hearth_inventory_households")).to.equal(2);
    expect(sample(text, "hearth_inventory_users")).to.equal(3);
    expect(sample(text, "hearth_inventory_active_items")).to.equal(17);
    expect(countCalls).to.equal(1);

    counts.activeItems = 18;
    text = (await request(server).get("/metrics")).text;
    expect(sample(text, "hearth_inventory_active_items")).to.equal(18);
  });

  it("keeps scraping when the inventory counts fail", async () => {
    metrics.stop();
    const logger = new MemoryLogger();
    metrics = createMetrics({
      logger,
      defaultMetrics: false,
      inventoryCounts: async () => {
        throw new Error("database down");
      },
    });
    const response = await request(app({ public: true })).get("/metrics");
    expect(response.status).to.equal(200);
    expect(logger.at("warn")).to.have.length.greaterThan(0);
  });

  it("detaches from the engine on stop", () => {
    expect(mqtt.listenerCount).to.equal(1);
    metrics.stop();
    expect(mqtt.listenerCount).to.equal(0);
  });
});
