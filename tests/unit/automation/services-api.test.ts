import { expect } from "chai";
import express from "express";
import request from "supertest";
import { createDebugApiRouter } from "../../../src/adapters/http/engine/debug-api-router.js";
import { createEngineAuth } from "../../../src/adapters/http/engine/engine-auth.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { ServiceRegistry } from "../../../src/application/automation/service-registry.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { ServiceCallError } from "../../../src/domain/automation/service-errors.js";
import type { ServiceHealthReport } from "../../../src/ports/service-health.js";
import { FakeAutomationManager } from "../../support/fake-automation-manager.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";

const healthy: ServiceHealthReport = {
  provider: "ntfy",
  configured: true,
  reachable: true,
  lastError: null,
  lastErrorAt: null,
  lastSuccessAt: "2026-01-01T10:00:00.000Z",
  config: { url: "https://ntfy.sh", token: "***" },
};

describe("services in the debug API", () => {
  let services: ServiceRegistry;
  let paired: string[];

  const app = (token?: string) => {
    const server = express();
    server.use(
      "/api",
      createDebugApiRouter({
        manager: new FakeAutomationManager(),
        state: new StateManager({ persist: false, filePath: "unused" }, { logger: new MemoryLogger() }),
        logs: new RingBufferLog(10),
        mqtt: new FakeMqttService(),
        deviceRegistry: null,
        services,
        readiness: () => ({ mqtt: true, engine: true }),
        startedAt: new Date(),
        version: "test",
        auth: createEngineAuth({ token, sessions: null }),
      }),
    );
    return server;
  };

  beforeEach(() => {
    paired = [];
    services = new ServiceRegistry(new MemoryLogger());
    services.register("notifications", { send: async () => undefined, serviceHealth: () => healthy });
    services.register("relay", {
      serviceHealth: (): ServiceHealthReport => ({
        ...healthy,
        provider: "shelly",
        reachable: false,
        lastError: "garage: unreachable",
      }),
    });
    services.register("custom", { anything: true });
    services.register("lightPanels", {
      pair: async (name: string) => {
        if (name === "hall")
          throw new ServiceCallError("lightPanels", "SERVICE_NOT_READY", 'Nanoleaf "hall" is not in pairing mode');
        if (name !== "living")
          throw new ServiceCallError("lightPanels", "SERVICE_UNKNOWN_DEVICE", `No light panel named "${name}"`);
        paired.push(name);
      },
    });
  });

  it("lists every service with its health; one without a report is configured with reachability unknown", async () => {
    const response = await request(app()).get("/api/services").expect(200);
    expect(response.body.count).to.equal(4);
    expect(response.body.services[0]).to.deep.equal({ key: "notifications", ...healthy });
    expect(response.body.services[1]).to.include({ key: "relay", provider: "shelly", reachable: false });
    expect(response.body.services[2]).to.deep.include({
      key: "custom",
      provider: "custom",
      configured: true,
      reachable: null,
    });
  });

  it("answers one service by key, or by another spelling of it, and 404 for none", async () => {
    const relay = await request(app()).get("/api/services/relays").expect(200);
    expect(relay.body).to.include({ key: "relays", provider: "shelly" });
    const missing = await request(app()).get("/api/services/weather").expect(404);
    expect(missing.body.message).to.match(/weather/);
    // Keys are looked up as keys: these were a 500 (Object.prototype's members found as aliases).
    for (const key of ["constructor", "__proto__", "toString"]) {
      await request(app()).get(`/api/services/${key}`).expect(404);
    }
  });

  it("summarises the services in /api/status", async () => {
    const status = await request(app()).get("/api/status").expect(200);
    expect(status.body.services).to.deep.equal({ registered: 4, reachable: 1, unreachable: 1, unknown: 2 });
  });

  it("pairs a light panel, and maps the service's errors to statuses", async () => {
    const ok = await request(app()).post("/api/services/lightPanels/living/pair").expect(200);
    expect(ok.body).to.deep.equal({ panel: "living", paired: true });
    expect(paired).to.deep.equal(["living"]);
    const notReady = await request(app()).post("/api/services/lightPanels/hall/pair").expect(409);
    expect(notReady.body.message).to.match(/pairing mode/);
    await request(app()).post("/api/services/lightPanels/attic/pair").expect(404);
    services = new ServiceRegistry(new MemoryLogger());
    const none = await request(app()).post("/api/services/lightPanels/living/pair").expect(404);
    expect(none.body.message).to.match(/NANOLEAF_PANELS/);
  });

  it("protects the service routes with the token", async () => {
    const protectedApp = app("tok");
    await request(protectedApp).get("/api/services").expect(401);
    await request(protectedApp).post("/api/services/lightPanels/living/pair").expect(401);
    expect(paired).to.deep.equal([]);
    await request(protectedApp).get("/api/services").set("Authorization", "Bearer tok").expect(200);
  });
});

describe("describeServiceHealth", () => {
  it("reports a service whose serviceHealth() throws instead of failing the whole list", async () => {
    const { describeServiceHealth } = await import("../../../src/ports/service-health.js");
    const health = describeServiceHealth("broken", {
      serviceHealth() {
        throw new Error("boom");
      },
    });
    expect(health).to.deep.include({ key: "broken", provider: "custom", configured: true, reachable: null });
    expect(health.lastError).to.equal("serviceHealth() threw: boom");
  });
});
