import { expect } from "chai";
import express from "express";
import request from "supertest";
import { createDebugApiRouter } from "../../../src/adapters/http/engine/debug-api-router.js";
import { createEngineAuth, SESSION_COOKIE } from "../../../src/adapters/http/engine/engine-auth.js";
import { SessionStore } from "../../../src/adapters/http/engine/session-store.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { ServiceRegistry } from "../../../src/application/automation/service-registry.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import type { HomeKitBridgeApi, HomeKitReport } from "../../../src/ports/homekit-bridge.js";
import { FakeAutomationManager } from "../../support/fake-automation-manager.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";

/** Answers like the real bridge: secrets only when asked for. */
class FakeHomeKit implements HomeKitBridgeApi {
  readonly serviceKey = "homekit";
  readonly asked: boolean[] = [];

  describe(includeSecrets: boolean): HomeKitReport {
    this.asked.push(includeSecrets);
    return {
      configured: true,
      reachable: true,
      lastError: null,
      accessories: 151,
      bridges: [
        {
          index: 0,
          name: "Hearth",
          username: "0E:11:22:33:44:55",
          port: 47128,
          accessories: 149,
          paired: true,
          setupUri: includeSecrets ? "X-HM://0023ISYWYABCD" : null,
          setupQr: includeSecrets ? "data:image/svg+xml;base64,PHN2Zy8+" : null,
        },
        {
          index: 1,
          name: "Hearth 2",
          username: "0E:11:22:33:44:56",
          port: 47129,
          accessories: 2,
          paired: false,
          setupUri: includeSecrets ? "X-HM://0023ISYWYEFGH" : null,
          setupQr: includeSecrets ? "data:image/svg+xml;base64,PHN2Zy8+" : null,
        },
      ],
      setupCode: includeSecrets ? "031-45-154" : null,
    };
  }
}

describe("GET /api/homekit", () => {
  const token = "engine-token-for-tests";
  let services: ServiceRegistry;
  let homekit: FakeHomeKit;
  let sessions: SessionStore;

  function appFor(configuredToken: string | undefined) {
    const app = express();
    app.use(
      "/api",
      createDebugApiRouter({
        manager: new FakeAutomationManager(),
        state: new StateManager({ persist: false }, { logger: new MemoryLogger() }),
        logs: new RingBufferLog(10),
        mqtt: new FakeMqttService(),
        deviceRegistry: null,
        services,
        readiness: () => ({ mqtt: true, engine: true }),
        startedAt: new Date(),
        version: "0.1.0",
        auth: createEngineAuth({ token: configuredToken, sessions }),
      }),
    );
    return app;
  }

  beforeEach(() => {
    services = new ServiceRegistry(new MemoryLogger());
    homekit = new FakeHomeKit();
    services.register("homekit", homekit);
    sessions = new SessionStore();
  });

  it("gives an authenticated caller the bridges, ports, counts, the setup code and the setup URIs", async () => {
    const response = await request(appFor(token))
      .get("/api/homekit")
      .set("Authorization", `Bearer ${token}`)
      .expect(200);
    expect(response.body.setupCode).to.equal("031-45-154");
    expect(response.body.bridges.map((bridge: { port: number }) => bridge.port)).to.deep.equal([47128, 47129]);
    expect(response.body.bridges.map((bridge: { accessories: number }) => bridge.accessories)).to.deep.equal([149, 2]);
    expect(response.body.bridges[0].setupUri).to.match(/^X-HM:\/\//);
    expect(response.body).to.not.have.property("setupCodeHidden");
  });

  it("accepts the web UI's session cookie as authentication", async () => {
    const session = sessions.create();
    const response = await request(appFor(token))
      .get("/api/homekit")
      .set("Cookie", `${SESSION_COOKIE}=${session.id}`)
      .expect(200);
    expect(response.body.setupCode).to.equal("031-45-154");
  });

  it("answers 401 without the token, and never asks the bridge for its secrets", async () => {
    const response = await request(appFor(token)).get("/api/homekit").expect(401);
    expect(JSON.stringify(response.body)).to.not.contain("031-45-154");
    const wrong = await request(appFor(token)).get("/api/homekit").set("Authorization", "Bearer nope").expect(401);
    expect(JSON.stringify(wrong.body)).to.not.contain("031-45-154");
    expect(homekit.asked).to.deep.equal([]);
  });

  it("without HTTP_TOKEN nobody is authenticated: bridges and counts, but no setup code, URI or QR", async () => {
    const response = await request(appFor(undefined)).get("/api/homekit").expect(200);
    expect(response.body.setupCode).to.equal(null);
    expect(response.body.setupCodeHidden).to.match(/Log in/);
    expect(
      response.body.bridges.map((bridge: { setupUri: unknown; setupQr: unknown }) => [bridge.setupUri, bridge.setupQr]),
    ).to.deep.equal([
      [null, null],
      [null, null],
    ]);
    expect(response.body.accessories).to.equal(151);
    expect(homekit.asked).to.deep.equal([false]);
  });

  it("answers 404 naming the switch when no bridge is registered", async () => {
    services = new ServiceRegistry(new MemoryLogger());
    const response = await request(appFor(token))
      .get("/api/homekit")
      .set("Authorization", `Bearer ${token}`)
      .expect(404);
    expect(response.body.message).to.contain("HOMEKIT_ENABLED=true");
  });
});
