import { expect } from "chai";
import express from "express";
import request from "supertest";
import { EngineHttpServer, type Readiness } from "../../../src/adapters/http/engine/engine-http-server.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";

describe("EngineHttpServer", () => {
  let readiness: Readiness;
  let server: EngineHttpServer;

  beforeEach(() => {
    readiness = { mqtt: false, engine: false, startedAt: null };
    server = new EngineHttpServer({ logger: new MemoryLogger(), readiness: () => readiness });
  });
  afterEach(async () => {
    await server.close();
  });

  it("answers /healthz always and /readyz only when MQTT is connected and start finished", async () => {
    const router = express.Router();
    router.get("/boom", () => {
      throw new Error("secret internals");
    });
    router.get("/teapot", () => {
      throw Object.assign(new Error("short and stout"), { status: 418 });
    });
    server.mount("/api", router);
    const port = await server.start(0, "127.0.0.1");
    expect(server.port).to.equal(port);
    const agent = request(`http://127.0.0.1:${port}`);

    expect((await agent.get("/healthz")).body).to.deep.equal({ status: "ok" });
    const notReady = await agent.get("/readyz");
    expect(notReady.status).to.equal(503);
    expect(notReady.body).to.deep.equal({
      status: "not ready",
      checks: { mqtt: false, engine: false },
      startedAt: null,
      role: "single",
      leader: null,
    });

    readiness = { mqtt: true, engine: false, startedAt: null };
    expect((await agent.get("/readyz")).status).to.equal(503);
    readiness = { mqtt: true, engine: true, startedAt: "2026-01-01T00:00:00.000Z" };
    const ready = await agent.get("/readyz");
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({
      status: "ready",
      checks: { mqtt: true, engine: true },
      startedAt: "2026-01-01T00:00:00.000Z",
      role: "single",
      leader: null,
    });

    // A standby is ready; only a probe asking for the leader is turned away.
    readiness = { mqtt: true, engine: true, startedAt: "2026-01-01T00:00:00.000Z", role: "standby", leader: "alpha" };
    const standby = await agent.get("/readyz");
    expect(standby.status).to.equal(200);
    expect(standby.body).to.deep.include({ role: "standby", leader: "alpha" });
    expect((await agent.get("/readyz?role=leader")).status).to.equal(503);
    readiness = { mqtt: true, engine: true, startedAt: "2026-01-01T00:00:00.000Z", role: "leader", leader: "alpha" };
    expect((await agent.get("/readyz?role=leader")).status).to.equal(200);

    const missing = await agent.get("/nowhere");
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal("Not Found");

    const failed = await agent.get("/api/boom");
    expect(failed.status).to.equal(500);
    expect(failed.body).to.deep.equal({ error: "Internal Server Error", message: "Internal Server Error" });
    expect((await agent.get("/api/teapot")).status).to.equal(418);
  });

  it("refuses mounts after start and closes while a request is in flight, finishing it", async () => {
    const router = express.Router();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    router.get("/slow", async (_request, response) => {
      arrived();
      await gate;
      response.json({ done: true });
    });
    server.mount("/x", router);
    const port = await server.start(0, "127.0.0.1");
    expect(() => server.mount("/late", express.Router())).to.throw(/before start/);
    const inFlight = fetch(`http://127.0.0.1:${port}/x/slow`);
    await arrival;
    const closing = server.close();
    release();
    const response = await inFlight;
    expect(await response.json()).to.deep.equal({ done: true });
    await closing;
    expect(server.port).to.equal(null);
  });
});
