import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { HomeKitBridge } from "../../../src/adapters/services/homekit/homekit-bridge.js";
import { MemoryJsonStore } from "../../../src/adapters/state/memory-json-store.js";
import { createEngine, type Engine } from "../../../src/composition/create-engine.js";
import type { JsonStore } from "../../../src/ports/json-store.js";
import { FakeMqttClient, FakeTime, waitFor } from "../../support/engine-fakes.js";
import { MemoryLease, MemoryLedger } from "../../support/memory-lease.js";

const settle = async () => {
  for (let round = 0; round < 20; round++) await new Promise((resolve) => setImmediate(resolve));
};

/** One document shared by the engines, written only under a live lease (as the database does). */
function fencedDocuments(lease: MemoryLease) {
  const stores = new Map<string, MemoryJsonStore>();
  return (name: string, fence: () => number | null): JsonStore => {
    const store = stores.get(name) ?? new MemoryJsonStore();
    stores.set(name, store);
    return {
      load: () => store.load(),
      moveAside: () => store.moveAside(),
      save: async (document) => {
        if (fence() === lease.token) await store.save(document);
      },
    };
  };
}

describe("createEngine with a leader lease (hot standby, fake time)", () => {
  let dir: string;
  const engines: Engine[] = [];
  beforeEach(async () => {
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "engine-standby-"));
    await writeFile(
      path.join(dir, "counter.ts"),
      `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class Counter extends Automation {
  readonly name = "counter";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "home/count" }];
  async execute(_context: TriggerContext): Promise<void> {
    this.state.set("count", (this.state.get<number>("count") ?? 0) + 1);
  }
}
`,
    );
  });
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs automations only on the leader; the standby takes over with the saved state", async () => {
    const time = new FakeTime("2026-06-01T00:00:00Z");
    const lease = new MemoryLease(time);
    const ledger = new MemoryLedger(lease);
    const documents = fencedDocuments(lease);
    const build = (instance: string, client: FakeMqttClient) => {
      const engine = createEngine({
        automationsDir: dir,
        logger: new MemoryLogger(),
        mqttClient: client,
        clock: time,
        timer: time,
        config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
        leadership: { lease, ledger, instance, documents },
      });
      engines.push(engine);
      return engine;
    };
    const alphaClient = new FakeMqttClient();
    const betaClient = new FakeMqttClient();
    const alpha = build("alpha", alphaClient);
    const beta = build("beta", betaClient);
    await alpha.start();
    await beta.start();
    expect(alpha.leadership).to.include({ role: "leader", instance: "alpha", leader: "alpha" });
    expect(beta.leadership).to.include({ role: "standby", instance: "beta", leader: "alpha" });
    expect(alpha.manager.runningCount).to.equal(1);
    expect(beta.manager.runningCount).to.equal(0);
    expect(beta.isReady).to.equal(true);

    alphaClient.deliver("home/count", "{}");
    alphaClient.deliver("home/count", "{}");
    betaClient.deliver("home/count", "{}");
    await settle();
    expect(alpha.state.get("count")).to.equal(2);
    expect(beta.state.get("count")).to.equal(undefined);

    await alpha.stop();
    time.advance(1000);
    // Promotion loads the automation from disk: wait for it, not for a number of ticks.
    await waitFor(() => beta.manager.runningCount === 1, 10_000, "beta to load the automation");
    expect(beta.leadership.role).to.equal("leader");
    expect(beta.state.get("count")).to.equal(2);
    betaClient.deliver("home/count", "{}");
    await settle();
    expect(beta.state.get("count")).to.equal(3);
  });

  it("runs leader-only services on the leader alone, and moves them with the lease", async () => {
    const time = new FakeTime("2026-06-01T00:00:00Z");
    const lease = new MemoryLease(time);
    const ledger = new MemoryLedger(lease);
    const documents = fencedDocuments(lease);
    const calls: string[] = [];
    /** A service plugin that logs its lifecycle: `leaderOnly` like the HomeKit bridge, or not. */
    const plugin = (instance: string, key: string, leaderOnly: boolean) => ({
      serviceKey: key,
      leaderOnly,
      onStart: () => {
        calls.push(`${instance} ${key} start`);
      },
      onStop: () => {
        calls.push(`${instance} ${key} stop`);
      },
    });
    const build = (instance: string) => {
      const engine = createEngine({
        automationsDir: dir,
        logger: new MemoryLogger(),
        mqttClient: new FakeMqttClient(),
        clock: time,
        timer: time,
        config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
        servicesFromEnvironment: false,
        services: { bridge: plugin(instance, "bridge", true), weather: plugin(instance, "weather", false) },
        leadership: { lease, ledger, instance, documents },
      });
      engines.push(engine);
      return engine;
    };
    const alpha = build("alpha");
    const beta = build("beta");
    await alpha.start();
    await beta.start();
    expect(calls).to.deep.equal(["alpha weather start", "alpha bridge start", "beta weather start"]);

    calls.length = 0;
    await alpha.stop();
    expect(calls).to.deep.equal(["alpha bridge stop", "alpha weather stop"]);
    calls.length = 0;
    time.advance(1000);
    await waitFor(() => calls.length > 0, 10_000, "beta to start the bridge");
    expect(calls).to.deep.equal(["beta bridge start"]);
    expect(beta.leadership.role).to.equal("leader");

    // Losing the lease (another instance took it) stops the bridge; the rest keeps running.
    calls.length = 0;
    lease.token += 1;
    lease.holder = "gamma";
    time.advance(1000);
    await waitFor(() => beta.leadership.role === "standby" && calls.length > 0, 10_000, "beta to step down");
    await settle();
    expect(calls).to.deep.equal(["beta bridge stop"]);
  });

  describe("a leader that wakes from a stall", () => {
    /** A lone leader "alpha" on fake time, started; the test stalls it and delivers to it. */
    const startAlpha = async () => {
      const time = new FakeTime("2026-06-01T00:00:00Z");
      const lease = new MemoryLease(time);
      const client = new FakeMqttClient();
      const logger = new MemoryLogger();
      const alpha = createEngine({
        automationsDir: dir,
        logger,
        mqttClient: client,
        clock: time,
        timer: time,
        config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
        leadership: { lease, ledger: new MemoryLedger(lease), instance: "alpha", documents: fencedDocuments(lease) },
      });
      engines.push(alpha);
      await alpha.start();
      return { time, lease, client, logger, alpha };
    };

    it("holds the messages that were waiting until the database confirms its lease, then runs them in order", async () => {
      const { time, client, logger, alpha } = await startAlpha();
      client.deliver("home/count", "{}");
      await settle();
      expect(alpha.state.get("count")).to.equal(1);

      // Stopped for 5 s: on waking, the socket's messages are read before any timer runs.
      time.stall(5000);
      client.deliver("home/count", "{}");
      client.deliver("home/count", "{}");
      await settle();
      expect(alpha.state.get("count"), "nothing runs on a lease the database has not confirmed").to.equal(1);

      time.advance(0);
      await waitFor(() => alpha.state.get("count") === 3, 10_000, "the held messages to run");
      expect(alpha.leadership.role).to.equal("leader");
      expect(logger.at("info").map((entry) => entry.msg)).to.include(
        "The engine lease was confirmed; running the firings held meanwhile",
      );
    });

    it("drops them when another instance took the lease meanwhile: they may have run there", async () => {
      const { time, lease, client, logger, alpha } = await startAlpha();

      time.stall(5000);
      // What a standby's takeover during the stall leaves in the lease row.
      lease.token += 1;
      lease.holder = "beta";
      client.deliver("home/count", "{}");
      await settle();
      expect(alpha.state.get("count")).to.equal(undefined);

      time.advance(0);
      await waitFor(() => alpha.leadership.role === "standby", 10_000, "alpha to step down");
      await settle();
      expect(alpha.state.get("count"), "the held message never ran on the old leader").to.equal(undefined);
      expect(logger.at("warn").map((entry) => entry.msg)).to.include("Firings held for the engine lease were not run");
    });
  });

  it("measures its lease on the monotonic clock: a wall clock stepped back does not keep a leader that cannot renew", async () => {
    // Real timers, and a wall clock that can be stepped as NTP does.
    let offsetMs = 0;
    const wall = { now: () => new Date(Date.now() + offsetMs) };
    const leaseTime = new FakeTime("2026-06-01T00:00:00Z");
    const lease = new MemoryLease(leaseTime);
    const engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      mqttClient: new FakeMqttClient(),
      clock: wall,
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
      leadership: {
        lease,
        ledger: new MemoryLedger(lease),
        instance: "alpha",
        documents: fencedDocuments(lease),
        ttlMs: 400,
        renewMs: 100,
      },
    });
    engines.push(engine);
    await engine.start();
    expect(engine.leadership.role).to.equal("leader");

    offsetMs = -3_600_000;
    lease.failRenew = true;
    await waitFor(() => engine.leadership.role === "standby", 5_000, "the leader to step down");
  });

  it("the HomeKit bridge is a leader-only service", () => {
    const bridge = new HomeKitBridge({
      logger: new MemoryLogger(),
      mqtt: { subscribe: () => undefined, unsubscribe: () => undefined } as never,
      deviceRegistry: null,
      relay: null,
      dataDir: "unused",
    });
    expect(bridge.leaderOnly).to.equal(true);
  });

  it("reports single without a lease", async () => {
    const engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      mqttClient: new FakeMqttClient(),
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
    });
    engines.push(engine);
    await engine.start();
    expect(engine.leadership.role).to.equal("single");
    expect(engine.manager.runningCount).to.equal(1);
  });
});
