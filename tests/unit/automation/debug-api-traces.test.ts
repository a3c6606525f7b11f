import { expect } from "chai";
import express from "express";
import request from "supertest";
import type { RunTrace } from "../../../src/ports/automation-catalog.js";
import { createDebugApiRouter } from "../../../src/adapters/http/engine/debug-api-router.js";
import { createEngineAuth } from "../../../src/adapters/http/engine/engine-auth.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { automationInfo, FakeAutomationManager } from "../../support/fake-automation-manager.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";

const TRACE: RunTrace = {
  id: 3,
  automation: "porch-light",
  trigger: { type: "mqtt", topic: "zigbee2mqtt/porch_motion", payload: { occupancy: true } },
  startedAt: "2026-01-01T10:00:00.000Z",
  durationMs: 2.5,
  status: "ok",
  logs: [{ time: "2026-01-01T10:00:00.001Z", level: "info", msg: "light on" }],
  published: [{ topic: "zigbee2mqtt/porch_light/set", payload: { state: "ON" } }],
  stateChanges: [],
  serviceCalls: [],
  omitted: {},
};

describe("debug API: traces and run modes", () => {
  let manager: FakeAutomationManager;

  function app(token?: string) {
    const server = express();
    server.use(
      "/api",
      createDebugApiRouter({
        manager,
        state: new StateManager({}, { logger: new MemoryLogger() }),
        logs: new RingBufferLog(),
        mqtt: new FakeMqttService(),
        deviceRegistry: null,
        readiness: () => ({ mqtt: true, engine: true }),
        startedAt: new Date(),
        version: "test",
        auth: createEngineAuth({ token, sessions: null }),
      }),
    );
    return server;
  }

  beforeEach(() => {
    manager = new FakeAutomationManager()
      .add(
        automationInfo("porch-light", {
          triggers: [{ type: "mqtt", topic: "zigbee2mqtt/porch_motion", hasFilter: true }],
        }),
      )
      .add(automationInfo("broken", { status: "failed", error: "SyntaxError" }));
    manager.traces.set("porch-light", {
      traces: [TRACE],
      rejected: [{ trigger: 0, count: 2, lastAt: "2026-01-01T09:59:00.000Z", lastPayload: { battery: 90 } }],
    });
  });

  it("answers an automation's traces and filter rejections", async () => {
    const response = await request(app()).get("/api/automations/porch-light/traces").expect(200);
    expect(response.body).to.deep.equal({
      automation: "porch-light",
      status: "running",
      traces: [TRACE],
      rejected: [{ trigger: 0, count: 2, lastAt: "2026-01-01T09:59:00.000Z", lastPayload: { battery: 90 } }],
      count: 1,
    });
  });

  it("answers empty lists for a failed automation and 404 for an unknown one", async () => {
    const failed = await request(app()).get("/api/automations/broken/traces").expect(200);
    expect(failed.body).to.include({ status: "failed", count: 0 });
    const unknown = await request(app()).get("/api/automations/ghost/traces").expect(404);
    expect(unknown.body.message).to.equal('No automation named "ghost"');
  });

  it("needs the token like every debug API route", async () => {
    await request(app("s3cret-token")).get("/api/automations/porch-light/traces").expect(401);
    await request(app("s3cret-token"))
      .get("/api/automations/porch-light/traces")
      .set("Authorization", "Bearer s3cret-token")
      .expect(200);
  });

  it("answers 409 when the run mode drops a manual trigger", async () => {
    manager.runAutomation = async () => ({ status: "dropped", reason: "a run is in progress (mode single)" });
    const response = await request(app())
      .post("/api/automations/porch-light/trigger")
      .send({ type: "mqtt", topic: "zigbee2mqtt/porch_motion" })
      .expect(409);
    expect(response.body).to.deep.equal({
      error: "Conflict",
      message: 'Automation "porch-light" did not run: a run is in progress (mode single)',
    });
  });
});
