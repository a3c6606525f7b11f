import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import mqtt, { type MqttClient as MqttJs } from "mqtt";
import request from "supertest";
import { createLogger } from "../../src/adapters/logging/winston-logger.js";
import { type Engine, createEngine } from "../../src/composition/create-engine.js";
import { engineRoutes } from "../../src/composition/engine-routes.js";
import { Automation } from "../../src/application/automation/sdk/automation.js";
import type { Trigger, TriggerContext } from "../../src/domain/automation/trigger.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";
import { bulb, coordinator } from "../support/zigbee2mqtt-fixtures.js";

class DoorbellWebhook extends Automation {
  readonly name = "doorbell-webhook";
  readonly triggers: Trigger[] = [{ type: "webhook", path: "doorbell", methods: ["POST"] }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "webhook") return;
    if ((context.body as { fail?: boolean } | undefined)?.fail) throw new Error("chime broken");
    this.logger.info("Doorbell pressed");
    this.state.set("doorbell", { pressedBy: context.query.who ?? "someone" });
  }
}

class DoorbellEcho extends Automation {
  readonly name = "doorbell-echo";
  readonly triggers: Trigger[] = [{ type: "state", key: "doorbell" }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "state") this.state.set("echo", context.newValue);
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("engine HTTP API through createEngine (real broker)", () => {
  let broker: TestBroker;
  let engine: Engine;
  let dir: string;
  let bridge: MqttJs;
  let prefix: string;
  let base: string;
  const auth = { Authorization: "Bearer tok" };

  before(async () => {
    broker = await acquireBroker("engine-http-api");
    dir = await mkdtemp(path.join(tmpdir(), "hearth-automations-"));
    prefix = uniqueTopicPrefix("z2m-api");
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const { logger, buffer } = createLogger({ level: "debug", json: true, stream: sink });
    engine = createEngine({
      automationsDir: dir,
      logger,
      logBuffer: buffer,
      httpPort: 0,
      httpHost: "127.0.0.1",
      routes: engineRoutes({ version: "9.9.9" }),
      config: {
        MQTT_HOST: broker.host,
        MQTT_PORT: broker.port,
        ZIGBEE2MQTT_PREFIX: prefix,
        HTTP_TOKEN: "tok",
        DEVICE_REGISTRY_ENABLED: true,
        DEVICE_REGISTRY_PERSIST: false,
        STATE_PERSIST: false,
      },
    });
    await engine.start();
    await engine.manager.register(new DoorbellWebhook());
    await engine.manager.register(new DoorbellEcho());
    base = `http://127.0.0.1:${engine.httpPort}`;
    bridge = await mqtt.connectAsync(broker.url);
    await bridge.publishAsync(`${prefix}/bridge/devices`, JSON.stringify([coordinator, bulb()]));
    await until(() => engine.deviceRegistry?.hasDevice("living_room_lamp") ?? false, "the device list");
  });

  after(async () => {
    await bridge?.endAsync();
    await engine?.stop();
    await rm(dir, { recursive: true, force: true });
    await broker.release();
  });

  it("reports status behind the token", async () => {
    await request(base).get("/api/status").expect(401);
    const response = await request(base).get("/api/status").set(auth).expect(200);
    expect(response.body).to.deep.include({ status: "ready", checks: { mqtt: true, engine: true }, version: "9.9.9" });
    expect(response.body.automations).to.deep.equal({ registered: 2, failed: 0 });
  });

  it("runs a webhook automation whose state change fires another automation", async () => {
    await request(base).post("/webhook/doorbell?who=postman").send({}).expect(200, { status: "ok" });
    expect(engine.state.get("doorbell")).to.deep.equal({ pressedBy: "postman" });
    expect(engine.state.get("echo")).to.deep.equal({ pressedBy: "postman" });
    await request(base).get("/webhook/doorbell").expect(405).expect("Allow", "POST");
    await request(base).post("/webhook/unknown").expect(404);
    const failed = await request(base).post("/webhook/doorbell").send({ fail: true }).expect(500);
    // The caller gets an error id, never the exception's text; the automation's stats keep it.
    expect(JSON.stringify(failed.body)).not.to.include("chime broken");
    expect(failed.body.errorId).to.be.a("string");
    expect(engine.manager.getAutomation("doorbell-webhook")?.stats.lastError).to.include("chime broken");
  });

  it("refuses a body holding 1e400 on the webhook and the manual trigger with 400, running nothing", async () => {
    const runsBefore = engine.manager.getAutomation("doorbell-webhook")?.stats.runs;
    const stateBefore = engine.state.get("doorbell");
    const webhook = await request(base)
      .post("/webhook/doorbell")
      .set("Content-Type", "application/json")
      .send('{"pressedAt":1e400}')
      .expect(400);
    expect(webhook.body.details).to.deep.equal([
      { path: "pressedAt", message: "is Infinity (a number out of range); JSON cannot hold it" },
    ]);
    const manual = await request(base)
      .post("/api/automations/doorbell-webhook/trigger")
      .set(auth)
      .set("Content-Type", "application/json")
      .send('{"type":"webhook","body":{"pressedAt":-1e400}}')
      .expect(400);
    expect(manual.body.details).to.deep.equal([
      { path: "body.pressedAt", message: "is -Infinity (a number out of range); JSON cannot hold it" },
    ]);
    expect(engine.manager.getAutomation("doorbell-webhook")?.stats.runs).to.equal(runsBefore);
    expect(engine.state.get("doorbell")).to.deep.equal(stateBefore);
  });

  it("triggers manually, edits state and reads logs and devices", async () => {
    await request(base)
      .post("/api/automations/doorbell-webhook/trigger")
      .set(auth)
      .send({ type: "webhook", path: "doorbell", query: { who: "debug" } })
      .expect(200, { status: "triggered" });
    await request(base)
      .put("/api/state/doorbell")
      .set(auth)
      .send({ value: { pressedBy: "api" } })
      .expect(200, { key: "doorbell", value: { pressedBy: "api" }, previous: { pressedBy: "debug" } });
    expect(engine.state.get("echo")).to.deep.equal({ pressedBy: "api" });
    const automation = await request(base).get("/api/automations/doorbell-webhook").set(auth).expect(200);
    expect(automation.body.stats.runs).to.be.greaterThan(0);
    const logs = await request(base).get("/api/logs?automation=doorbell-webhook&level=info").set(auth).expect(200);
    expect(logs.body.entries.some((entry: { msg: string }) => entry.msg === "Doorbell pressed")).to.equal(true);
    await bridge.publishAsync(`${prefix}/living_room_lamp`, JSON.stringify({ state: "ON" }));
    await until(async () => {
      const device = await request(base).get("/api/devices/living_room_lamp").set(auth);
      return device.body.state?.state === "ON";
    }, "the lamp state over the API");
    const list = await request(base).get("/api/devices").set(auth).expect(200);
    expect(list.body.count).to.equal(1);
  });
});
