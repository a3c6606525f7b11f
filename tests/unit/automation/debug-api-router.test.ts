import { zigbee2MqttMessages } from "../../../src/adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { expect } from "chai";
import express from "express";
import request from "supertest";
import { createDebugApiRouter, type DebugApiDeps } from "../../../src/adapters/http/engine/debug-api-router.js";
import { createEngineAuth } from "../../../src/adapters/http/engine/engine-auth.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { DeviceRegistry } from "../../../src/application/automation/device-registry.js";
import type {
  CronTriggerContext,
  DeviceJoinedTriggerContext,
  DeviceStateTriggerContext,
  MqttTriggerContext,
  StateTriggerContext,
  WebhookTriggerContext,
} from "../../../src/domain/automation/trigger.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { WebhookRefusedError } from "../../../src/domain/automation/webhook-refusal.js";
import { automationInfo, FakeAutomationManager } from "../../support/fake-automation-manager.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";
import { bulb, coordinator, motionSensor } from "../../support/zigbee2mqtt-fixtures.js";

describe("debug API router", () => {
  const startedAt = new Date("2026-01-01T10:00:00.000Z");
  let manager: FakeAutomationManager;
  let state: StateManager;
  let logs: RingBufferLog;
  let mqtt: FakeMqttService;
  let devices: DeviceRegistry;
  let ready: { mqtt: boolean; engine: boolean };

  function appFor(overrides: Partial<DebugApiDeps> = {}) {
    const app = express();
    app.use(
      "/api",
      createDebugApiRouter({
        manager,
        state,
        logs,
        mqtt,
        deviceRegistry: devices,
        readiness: () => ready,
        startedAt,
        version: "0.1.0",
        auth: createEngineAuth({ token: undefined, sessions: null }),
        now: () => startedAt.getTime() + 90_500,
        ...overrides,
      }),
    );
    return app;
  }

  beforeEach(async () => {
    manager = new FakeAutomationManager()
      .add(
        automationInfo("porch-light", {
          triggers: [
            { type: "mqtt", topic: "zigbee2mqtt/porch_motion", hasFilter: true },
            { type: "cron", expression: "0 8 * * *" },
            { type: "webhook", path: "porch", methods: ["POST"] },
            { type: "device_state", friendlyName: "living_room_lamp" },
          ],
        }),
      )
      .add(automationInfo("fails-always"), () => {
        throw new Error("bulb unreachable");
      })
      .add(automationInfo("bad-file", { status: "failed", error: "SyntaxError in bad-file.ts", triggers: [] }));
    state = new StateManager({ persist: false }, { logger: new MemoryLogger() });
    logs = new RingBufferLog(100);
    mqtt = new FakeMqttService();
    ready = { mqtt: true, engine: true };
    devices = new DeviceRegistry({
      messages: zigbee2MqttMessages,
      mqtt,
      prefix: "zigbee2mqtt",
      logger: new MemoryLogger(),
      names: { living_room_lamp: "Sofa lamp" },
    });
    await devices.start();
    await mqtt.emit("zigbee2mqtt/bridge/devices", [coordinator, bulb(), motionSensor()]);
    await mqtt.emit("zigbee2mqtt/living_room_lamp", { state: "ON", brightness: 120 });
  });

  describe("GET /api/status", () => {
    it("reports readiness, uptime, automation counts and version", async () => {
      const response = await request(appFor()).get("/api/status").expect(200);
      expect(response.body).to.deep.equal({
        status: "ready",
        checks: { mqtt: true, engine: true },
        startedAt: "2026-01-01T10:00:00.000Z",
        uptimeSeconds: 90,
        automations: { registered: 2, failed: 1 },
        role: "single",
        services: { registered: 0, reachable: 0, unreachable: 0, unknown: 0 },
        version: "0.1.0",
      });
    });

    it("names its role and the leader under a lease", async () => {
      const leadership = () => ({ role: "standby" as const, instance: "beta", leader: "alpha" });
      const response = await request(appFor({ leadership })).get("/api/status").expect(200);
      expect(response.body).to.deep.include({ role: "standby", instance: "beta", leader: "alpha" });
    });

    it("says not_ready when MQTT is down, as /readyz decides", async () => {
      ready = { mqtt: false, engine: true };
      const response = await request(appFor()).get("/api/status").expect(200);
      expect(response.body.status).to.equal("not_ready");
      expect(response.body.checks).to.deep.equal({ mqtt: false, engine: true });
    });
  });

  describe("automations", () => {
    it("lists automations with a count", async () => {
      const response = await request(appFor()).get("/api/automations").expect(200);
      expect(response.body.count).to.equal(3);
      expect(response.body.automations.map((a: { name: string }) => a.name)).to.deep.equal([
        "porch-light",
        "fails-always",
        "bad-file",
      ]);
      expect(response.body.automations[2]).to.include({ status: "failed", error: "SyntaxError in bad-file.ts" });
    });

    it("returns one automation or 404", async () => {
      const response = await request(appFor()).get("/api/automations/porch-light").expect(200);
      expect(response.body.name).to.equal("porch-light");
      expect(response.body.stats).to.deep.equal({
        runs: 0,
        errors: 0,
        lastRunAt: null,
        lastError: null,
        lastDurationMs: null,
      });
      const missing = await request(appFor()).get("/api/automations/nope").expect(404);
      expect(missing.body).to.include({ error: "Not Found" });
      expect(missing.body.message).to.include("nope");
    });
  });

  describe("POST /api/automations/:name/trigger", () => {
    const trigger = (body: unknown, name = "porch-light") =>
      request(appFor())
        .post(`/api/automations/${name}/trigger`)
        .send(body as object);

    it("runs an mqtt trigger", async () => {
      await trigger({ type: "mqtt", topic: "zigbee2mqtt/porch_motion", payload: { occupancy: true } }).expect(200, {
        status: "triggered",
      });
      expect(manager.runs[0]!.context as MqttTriggerContext).to.deep.equal({
        type: "mqtt",
        topic: "zigbee2mqtt/porch_motion",
        payload: { occupancy: true },
      });
    });

    it("runs a cron trigger with firedAt as a Date, defaulting the expression and time", async () => {
      await trigger({ type: "cron", expression: "*/5 * * * *", firedAt: "2026-02-03T04:05:06.000Z" }).expect(200);
      await trigger({ type: "cron" }).expect(200);
      const [explicit, defaulted] = manager.runs.map((run) => run.context as CronTriggerContext);
      expect(explicit!.firedAt).to.be.instanceOf(Date);
      expect(explicit!.firedAt.toISOString()).to.equal("2026-02-03T04:05:06.000Z");
      expect(defaulted!.expression).to.equal("0 8 * * *");
      expect(defaulted!.firedAt).to.be.instanceOf(Date);
    });

    it("runs state and webhook triggers", async () => {
      await trigger({ type: "state", key: "door", newValue: "open", oldValue: "closed" }).expect(200);
      await trigger({ type: "webhook", path: "porch", method: "put", query: { a: "1" }, body: { x: 1 } }).expect(200);
      expect(manager.runs[0]!.context as StateTriggerContext).to.deep.equal({
        type: "state",
        key: "door",
        newValue: "open",
        oldValue: "closed",
      });
      expect(manager.runs[1]!.context as WebhookTriggerContext).to.deep.equal({
        type: "webhook",
        path: "porch",
        method: "PUT",
        headers: {},
        query: { a: "1" },
        body: { x: 1 },
      });
    });

    it("runs device triggers built from a friendly name or from a given device", async () => {
      await trigger({ type: "device_state", friendlyName: "living_room_lamp", state: { brightness: 10 } }).expect(200);
      await trigger({ type: "device_joined", friendlyName: "hallway_motion" }).expect(200);
      await trigger({
        type: "device_left",
        device: { friendly_name: "old_plug", ieee_address: "0x1234", type: "Router" },
      }).expect(200);
      const deviceState = manager.runs[0]!.context as DeviceStateTriggerContext;
      expect(deviceState.friendlyName).to.equal("living_room_lamp");
      expect(deviceState.state).to.deep.equal({ state: "ON", brightness: 10 });
      expect(deviceState.device.ieee_address).to.equal("0x0017880108f1e2d3");
      const joined = manager.runs[1]!.context as DeviceJoinedTriggerContext;
      expect(joined.device.definition?.model).to.equal("RTCGQ11LM");
      expect(manager.runs[2]!.context).to.deep.equal({
        type: "device_left",
        device: { friendly_name: "old_plug", ieee_address: "0x1234", type: "Router" },
      });
    });

    it("answers 404 for an unknown automation", async () => {
      const response = await trigger({ type: "mqtt", topic: "a" }, "ghost").expect(404);
      expect(response.body.error).to.equal("Not Found");
      const failed = await trigger({ type: "mqtt", topic: "a" }, "bad-file").expect(404);
      expect(failed.body.message).to.include("SyntaxError in bad-file.ts");
    });

    it("answers 400 with details for malformed bodies", async () => {
      const unknownType = await trigger({ type: "teleport" }).expect(400);
      expect(unknownType.body).to.include({ error: "Bad Request" });
      expect(unknownType.body.details).to.be.an("array").that.is.not.empty;
      const noTopic = await trigger({ type: "mqtt" }).expect(400);
      expect(noTopic.body.details[0].path).to.equal("topic");
      await trigger({ type: "cron", firedAt: "yesterday" }).expect(400);
      await trigger({ type: "device_joined" }, "fails-always").expect(400);
      await trigger({}).expect(400);
      const malformed = await request(appFor())
        .post("/api/automations/porch-light/trigger")
        .set("Content-Type", "application/json")
        .send("{oops")
        .expect(400);
      expect(malformed.body).to.include({ error: "Bad Request", message: "Request body is not valid JSON" });
      expect(malformed.body.details).to.have.length(1);
      expect(malformed.body.details[0].path).to.equal("");
      expect(manager.runs).to.have.length(0);
    });

    it("answers 400 TRIGGER_INPUT_NOT_FINITE for a number JSON cannot hold (1e400 parses as Infinity), naming where, and runs nothing", async () => {
      for (const [body, path, number] of [
        [
          '{"type":"mqtt","topic":"zigbee2mqtt/porch_motion","payload":{"temperature":1e400}}',
          "payload.temperature",
          "Infinity",
        ],
        ['{"type":"state","key":"level","newValue":-1e400}', "newValue", "-Infinity"],
        ['{"type":"webhook","body":{"readings":[20,1e999]}}', "body.readings.1", "Infinity"],
      ] as const) {
        const response = await request(appFor())
          .post("/api/automations/porch-light/trigger")
          .set("Content-Type", "application/json")
          .send(body)
          .expect(400);
        expect(response.body, body).to.deep.equal({
          error: "Bad Request",
          message: `The request body's ${path} is ${number}, a number out of JSON's range (1e400 parses as Infinity); send a finite number or a string. Nothing ran`,
          details: [{ path, message: `is ${number} (a number out of range); JSON cannot hold it` }],
        });
      }
      expect(manager.runs).to.have.length(0);
    });

    it("answers 500 with the error message when execute throws", async () => {
      const response = await trigger({ type: "state", key: "k" }, "fails-always").expect(500);
      expect(response.body.error).to.equal("bulb unreachable");
    });

    it("answers a webhook trigger the automation refused as the webhook would: its status and error body", async () => {
      manager.add(automationInfo("strict", { triggers: [{ type: "webhook", path: "strict" }] }), () => {
        throw new WebhookRefusedError(422, "Send away", { details: [{ path: "away", message: "missing" }] });
      });
      const response = await trigger({ type: "webhook", body: {} }, "strict").expect(422);
      expect(response.body).to.deep.equal({
        error: "Unprocessable Entity",
        message: "Send away",
        details: [{ path: "away", message: "missing" }],
      });
      // From another trigger type the refusal reaches no caller: an ordinary failure.
      await trigger({ type: "state", key: "k" }, "strict").expect(500);
    });
  });

  describe("state", () => {
    it("lists, reads, sets and deletes state", async () => {
      const app = appFor();
      state.set("mode", "away");
      await request(app)
        .get("/api/state")
        .expect(200, { state: { mode: "away" }, count: 1 });
      await request(app).get("/api/state/mode").expect(200, { key: "mode", value: "away", exists: true });
      await request(app).get("/api/state/none").expect(200, { key: "none", value: null, exists: false });
      await request(app)
        .put("/api/state/mode")
        .send({ value: { home: true } })
        .expect(200, { key: "mode", value: { home: true }, previous: "away" });
      await request(app)
        .put("/api/state/fresh")
        .send({ value: 3 })
        .expect(200, { key: "fresh", value: 3, previous: null });
      await request(app).delete("/api/state/mode").expect(200, { key: "mode", deleted: true });
      await request(app).delete("/api/state/mode").expect(200, { key: "mode", deleted: false });
    });

    it("fires state triggers through the state manager", async () => {
      const changes: unknown[][] = [];
      state.onChange("door", (...args) => changes.push(args));
      await request(appFor()).put("/api/state/door").send({ value: "open" }).expect(200);
      expect(changes).to.deep.equal([["door", "open", undefined]]);
    });

    it("answers 400 when the body has no value or is not JSON", async () => {
      const app = appFor();
      const response = await request(app).put("/api/state/x").send({ other: 1 }).expect(400);
      expect(response.body).to.include({ error: "Bad Request" });
      await request(app).put("/api/state/x").type("text/plain").send("5").expect(400);
      await request(app).put("/api/state/x").set("Content-Type", "application/json").send("{bad").expect(400);
      expect(state.has("x")).to.equal(false);
    });

    it("answers 400 for a number JSON cannot hold (1e400 parses as Infinity), naming where, and changes nothing", async () => {
      const app = appFor();
      state.set("level", 1);
      for (const [body, path] of [
        ['{"value":1e400}', "value"],
        ['{"value":-1e400}', "value"],
        ['{"value":{"rooms":[{"temp":21},{"temp":1e999}]}}', "value.rooms.1.temp"],
      ] as const) {
        const response = await request(app).put("/api/state/level").set("Content-Type", "application/json").send(body);
        expect(response.status, body).to.equal(400);
        expect(response.body).to.include({ error: "Bad Request" });
        expect(response.body.message).to.contain("JSON cannot hold");
        expect(response.body.details).to.deep.equal([
          {
            path,
            message: `is ${body.includes("-1e400") ? "-Infinity" : "Infinity"} (a number out of range); JSON cannot hold it`,
          },
        ]);
      }
      expect(state.get("level")).to.equal(1);
    });

    it("answers 400 for a value nested deeper than 32 levels, which the state file could not hold, and changes nothing", async () => {
      const app = appFor();
      const deep = `{"value":${"[".repeat(5000)}${"]".repeat(5000)}}`;
      for (const body of [deep, `${"[".repeat(5000)}${"]".repeat(5000)}`]) {
        const response = await request(app)
          .put("/api/state/x")
          .set("Content-Type", "application/json")
          .send(body)
          .expect(400);
        expect(response.body.details?.[0]?.message).to.equal("is nested deeper than 32 levels");
      }
      expect(state.has("x")).to.equal(false);
      await request(app)
        .put("/api/state/x")
        .send({ value: { a: { b: { c: [1, 2, { d: true }] } } } })
        .expect(200);
    });

    it("says the body must be { value } when a bare JSON value is sent", async () => {
      const app = appFor();
      for (const bare of ["true", "5", '"on"', "null", "[1]"]) {
        const response = await request(app)
          .put("/api/state/away")
          .set("Content-Type", "application/json")
          .send(bare)
          .expect(400);
        expect(response.body.message).to.match(/^The body must be a JSON object \{ "value": … \}/);
        expect(response.body.message).not.to.match(/Unexpected token/);
      }
      expect(state.has("away")).to.equal(false);
    });

    it("answers 400, logging no server error, for a path it cannot percent-decode and a body that does not decompress", async () => {
      const logger = new MemoryLogger();
      const app = appFor({ logger });
      for (const path of ["/api/state/%E0%A4%A", "/api/automations/%ZZ", "/api/automations/%ZZ/trigger"]) {
        const response = await request(app).get(path);
        expect(response.status, path).to.equal(400);
        expect(response.body).to.deep.equal({
          error: "Bad Request",
          message: "Malformed percent-encoding in the path",
        });
      }
      const decoded = await request(app).put("/api/state/%E0%A4%A").send({ value: 1 });
      expect(decoded.status).to.equal(400);
      for (const encoding of ["gzip", "deflate"]) {
        const response = await request(app)
          .put("/api/state/away")
          .set("Content-Type", "application/json")
          .set("Content-Encoding", encoding)
          .send('{"value": true}');
        expect(response.status, encoding).to.equal(400);
        expect(response.body.message).to.match(/^Request body cannot be decompressed as its Content-Encoding says/);
      }
      expect(state.has("away")).to.equal(false);
      expect(logger.entries.filter((entry) => entry.level === "error")).to.deep.equal([]);
    });

    it("answers a change once it is kept, and 503 when keeping it failed", async () => {
      const logger = new MemoryLogger();
      let kept = 0;
      let failing = false;
      const app = appFor({
        logger,
        persistState: async () => {
          if (failing) throw new Error("ENOSPC: no space left on device");
          kept++;
        },
      });
      await request(app).put("/api/state/away").send({ value: true }).expect(200);
      await request(app).delete("/api/state/away").expect(200);
      expect(kept).to.equal(2);
      failing = true;
      const refused = await request(app).put("/api/state/away").send({ value: false }).expect(503);
      expect(refused.body.message).to.equal(
        "The change is made in memory but could not be saved (ENOSPC: no space left on device); a restart before the next successful save loses it",
      );
      await request(app).delete("/api/state/away").expect(503);
      expect(logger.at("error")).to.have.length(2);
    });

    it("answers 413 for bodies over 1 MB", async () => {
      await request(appFor())
        .put("/api/state/big")
        .send({ value: "x".repeat(1024 * 1024 + 1) })
        .expect(413);
    });
  });

  describe("GET /api/logs", () => {
    beforeEach(() => {
      logs.push({ level: 30, time: 1, msg: "started", automation: "porch-light" });
      logs.push({ level: 50, time: 2, msg: "failed", automation: "fails-always" });
      logs.push({ level: 40, time: 3, msg: "slow", automation: "porch-light" });
    });

    it("returns entries newest first with a count", async () => {
      const response = await request(appFor()).get("/api/logs").expect(200);
      expect(response.body.count).to.equal(3);
      expect(response.body.entries.map((e: { msg: string }) => e.msg)).to.deep.equal(["slow", "failed", "started"]);
    });

    it("filters by automation, numeric or named level, and limit", async () => {
      const app = appFor();
      const byAutomation = await request(app).get("/api/logs?automation=porch-light").expect(200);
      expect(byAutomation.body.count).to.equal(2);
      const byNumber = await request(app).get("/api/logs?level=40").expect(200);
      expect(byNumber.body.entries.map((e: { msg: string }) => e.msg)).to.deep.equal(["slow", "failed"]);
      const byName = await request(app).get("/api/logs?level=error").expect(200);
      expect(byName.body.count).to.equal(1);
      const limited = await request(app).get("/api/logs?limit=1").expect(200);
      expect(limited.body.entries.map((e: { msg: string }) => e.msg)).to.deep.equal(["slow"]);
      await request(app).get("/api/logs?limit=1000").expect(200);
      const blank = await request(app).get("/api/logs?automation=&level=&limit=").expect(200);
      expect(blank.body.count).to.equal(3);
    });

    it("answers 400 for a limit outside 1-1000 or an unknown level", async () => {
      const app = appFor();
      for (const query of ["limit=0", "limit=1001", "limit=abc", "limit=-5", "level=loud"]) {
        const response = await request(app).get(`/api/logs?${query}`).expect(400);
        expect(response.body.error).to.equal("Bad Request");
        expect(response.body.details).to.be.an("array");
      }
    });

    it("answers 400 naming a parameter given twice instead of taking one of its values", async () => {
      const app = appFor();
      for (const [query, parameter] of [
        ["limit=1&limit=2", "limit"],
        ["level=info&level=error", "level"],
        ["automation=porch-light&automation=other", "automation"],
        ["limit=5&level=warn&level=warn", "level"],
      ] as const) {
        const response = await request(app).get(`/api/logs?${query}`).expect(400);
        expect(response.body).to.include({ error: "Bad Request" });
        expect(response.body.details, query).to.deep.equal([
          { path: parameter, message: "was given more than once; give it once" },
        ]);
      }
    });
  });

  describe("devices", () => {
    it("lists devices with nice names and merged state", async () => {
      const response = await request(appFor()).get("/api/devices").expect(200);
      expect(response.body.count).to.equal(2);
      const lamp = response.body.devices.find((d: { friendly_name: string }) => d.friendly_name === "living_room_lamp");
      expect(lamp).to.deep.include({ niceName: "Sofa lamp", state: { state: "ON", brightness: 120 } });
      expect(lamp.definition.vendor).to.equal("Philips");
    });

    it("returns one device with merged state, or 404", async () => {
      await mqtt.emit("zigbee2mqtt/living_room_lamp", { brightness: 7 });
      const response = await request(appFor()).get("/api/devices/living_room_lamp").expect(200);
      expect(response.body).to.deep.include({
        friendly_name: "living_room_lamp",
        ieee_address: "0x0017880108f1e2d3",
        state: { state: "ON", brightness: 7 },
      });
      const missing = await request(appFor()).get("/api/devices/garden/lamp").expect(404);
      expect(missing.body.message).to.include("garden/lamp");
    });

    it("answers 503 when the registry is disabled", async () => {
      const app = appFor({ deviceRegistry: null });
      const list = await request(app).get("/api/devices").expect(503);
      expect(list.body.error).to.equal("Service Unavailable");
      expect(list.body.message).to.match(/DEVICE_REGISTRY_ENABLED/);
      await request(app).get("/api/devices/living_room_lamp").expect(503);
    });
  });

  describe("authentication", () => {
    it("protects every route when a token is set", async () => {
      const app = appFor({ auth: createEngineAuth({ token: "tok", sessions: null }) });
      for (const path of ["/api/status", "/api/automations", "/api/state", "/api/logs", "/api/devices"]) {
        await request(app).get(path).expect(401);
        await request(app).get(path).set("Authorization", "Bearer tok").expect(200);
      }
      await request(app).put("/api/state/a").send({ value: 1 }).expect(401);
      await request(app).post("/api/automations/porch-light/trigger").send({ type: "state", key: "a" }).expect(401);
      expect(state.has("a")).to.equal(false);
      expect(manager.runs).to.have.length(0);
    });
  });
});
