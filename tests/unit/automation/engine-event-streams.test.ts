import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { unreadResponse } from "../../support/unread-response.js";
import express from "express";
import { zigbee2MqttMessages } from "../../../src/adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { createDebugApiRouter } from "../../../src/adapters/http/engine/debug-api-router.js";
import { createEngineAuth } from "../../../src/adapters/http/engine/engine-auth.js";
import { EngineEventStreams } from "../../../src/adapters/http/engine/engine-event-streams.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { FakeClock } from "../../../src/adapters/testing/fake-clock.js";
import { DeviceRegistry } from "../../../src/application/automation/device-registry.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import type { ServiceHealth } from "../../../src/ports/service-health.js";
import { openEventStream } from "../../support/event-stream-client.js";
import { automationInfo, FakeAutomationManager } from "../../support/fake-automation-manager.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";
import { bulb, coordinator } from "../../support/zigbee2mqtt-fixtures.js";

describe("the engine's event stream (GET /api/events)", () => {
  let server: Server;
  let base: string;
  let clock: FakeClock;
  let state: StateManager;
  let logs: RingBufferLog;
  let manager: FakeAutomationManager;
  let mqtt: FakeMqttService;
  let devices: DeviceRegistry;
  let health: ServiceHealth[];
  let streams: EngineEventStreams;
  const token = "engine-token";

  function weather(reachable: boolean | null): ServiceHealth {
    return {
      key: "weather",
      provider: "open-meteo",
      configured: true,
      reachable,
      lastError: null,
      lastErrorAt: null,
      lastSuccessAt: null,
      config: {},
    };
  }

  async function start(options: { maxStreams?: number; maxLogLinesPerSecond?: number } = {}) {
    clock = new FakeClock();
    state = new StateManager({ persist: false }, { logger: new MemoryLogger() });
    logs = new RingBufferLog(100);
    manager = new FakeAutomationManager().add(automationInfo("porch"));
    mqtt = new FakeMqttService();
    devices = new DeviceRegistry({
      messages: zigbee2MqttMessages,
      mqtt,
      prefix: "zigbee2mqtt",
      logger: new MemoryLogger(),
      names: {},
    });
    await devices.start();
    health = [weather(null)];
    streams = new EngineEventStreams(
      { state, manager, mqtt, logs, deviceRegistry: devices, servicesHealth: () => health },
      { timer: clock, now: () => clock.now().getTime(), ...options },
    );
    const app = express();
    app.use(
      "/api",
      createDebugApiRouter({
        manager,
        state,
        logs,
        mqtt,
        deviceRegistry: devices,
        readiness: () => ({ mqtt: true, engine: true }),
        startedAt: new Date(),
        version: "test",
        auth: createEngineAuth({ token, sessions: null }),
        events: streams,
      }),
    );
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events`;
  }

  const open = (headers: Record<string, string> = { Authorization: `Bearer ${token}` }, url = base) =>
    openEventStream(url, { Accept: "text/event-stream", ...headers });

  afterEach(async () => {
    streams?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it("needs the engine token, and refuses a query with 400", async () => {
    await start();
    expect((await open({})).status).to.equal(401);
    const withQuery = await open(undefined, `${base}?level=info`);
    expect(withQuery.status).to.equal(400);
    expect(streams.size).to.equal(0);
  });

  it("pushes state changes, finished runs, log lines from info up, devices and service health", async () => {
    await start();
    const stream = await open();
    expect(stream.status).to.equal(200);
    expect(stream.headers.get("content-type")).to.match(/^text\/event-stream/);
    await stream.comment(": connected");

    state.set("porch.light", "on");
    expect((await stream.next((m) => m.event === "state")).data).to.deep.equal({
      key: "porch.light",
      deleted: false,
      value: "on",
    });
    state.delete("porch.light");
    await stream.next((m) => m.event === "state" && (m.data as { deleted: boolean }).deleted);
    state.set("big", "x".repeat(5000));
    expect(
      (await stream.next((m) => m.event === "state" && (m.data as { key: string }).key === "big")).data,
    ).to.deep.equal({ key: "big", deleted: false, truncated: true });

    await manager.runAutomation("porch", { type: "mqtt" } as never);
    expect((await stream.next((m) => m.event === "automation.run")).data).to.deep.equal({
      name: "porch",
      outcome: "ok",
      durationMs: 0,
    });
    // One registered, reloaded or failed: the list changed, not only its counts.
    manager.add(automationInfo("garage"));
    expect((await stream.next((m) => m.event === "automations")).data).to.deep.equal({});
    // The broker drops and comes back: the overview's banner follows.
    mqtt.setConnected(false);
    expect((await stream.next((m) => m.event === "mqtt")).data).to.deep.equal({ connected: false });
    mqtt.setConnected(true);
    expect(
      (await stream.next((m) => m.event === "mqtt" && (m.data as { connected: boolean }).connected)).data,
    ).to.deep.equal({ connected: true });

    // The ring buffer is fed by the engine's logger; here entries go in directly.
    logs.push({ level: 20, time: 1, msg: "debug line" });
    logs.push({ level: 30, time: 2, msg: "info line" });
    const line = await stream.next((m) => m.event === "log");
    expect((line.data as { msg: string }).msg).to.equal("info line");

    // The registry's first list is not announced as joins: the next check sees it.
    await mqtt.emit("zigbee2mqtt/bridge/devices", [coordinator, bulb()]);
    health = [weather(true)];
    await clock.advance("5s");
    const added = await stream.next((m) => m.event === "device");
    expect(added.data).to.deep.equal({ friendlyName: "living_room_lamp", change: "added" });
    await mqtt.emit("zigbee2mqtt/living_room_lamp", { state: "ON" });
    await stream.next((m) => m.event === "device" && (m.data as { change: string }).change === "state");
    const service = await stream.next((m) => m.event === "service");
    expect((service.data as { key: string; health: ServiceHealth }).health.reachable).to.equal(true);

    await clock.advance("15s");
    await stream.comment(": ping");
    stream.close();
  });

  it("bounds log lines per second and says how many it left out", async () => {
    await start({ maxLogLinesPerSecond: 2 });
    const stream = await open();
    await stream.comment(": connected");
    for (let n = 0; n < 5; n++) logs.push({ level: 30, time: n, msg: `line ${n}` });
    await clock.advance("15s");
    const skipped = await stream.next((m) => m.event === "log.skipped");
    expect(skipped.data).to.deep.equal({ count: 3 });
    expect(stream.messages.filter((m) => m.event === "log")).to.have.length(2);
    stream.close();
  });

  it("answers HEAD with the stream's headers at once and opens no stream", async () => {
    await start({ maxStreams: 1 });
    const head = await fetch(base, { method: "HEAD", headers: { Authorization: `Bearer ${token}` } });
    expect(head.status).to.equal(200);
    expect(head.headers.get("content-type")).to.match(/^text\/event-stream/);
    expect(streams.size).to.equal(0);
    expect((await open()).status, "the one slot is still free").to.equal(200);
  });

  it("refuses streams beyond the bound with 429, and ends every stream on close()", async () => {
    await start({ maxStreams: 1 });
    const first = await open();
    await first.comment(": connected");
    const second = await open();
    expect(second.status).to.equal(429);
    streams.close();
    await first.ended;
    expect(streams.size).to.equal(0);
    expect((await open()).status).to.equal(503);
    streams.resume();
    const again = await open();
    expect(again.status).to.equal(200);
    again.close();
  });

  it("drops a client that does not read instead of buffering for it", async () => {
    await start();
    const { res, written, state: reader } = unreadResponse();
    const req = { on: () => req };
    const handler = streams.handler();
    (handler as unknown as (q: unknown, s: unknown, n: () => void) => void)(req, res, () => undefined);
    expect(streams.size).to.equal(1);
    for (let n = 0; n < 200 && !reader.destroyed; n++) state.set(`key-${n}`, "x".repeat(2000));
    expect(reader.destroyed, "the slow client is dropped").to.equal(true);
    expect(streams.size).to.equal(0);
    expect(written.join("").length).to.be.below(256 * 1024 + 4096);
  });
});
