/**
 * Two engines under one lease, each configured with the same HomeKit bridge (HOMEKIT_* alone,
 * one port): only the leader publishes it, and it moves to the standby with the lease. Two
 * bridges with one identity on a network confuse every HomeKit controller; on one host the
 * second would not even get the port.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import { isHomeKitBridge } from "../../src/ports/homekit-bridge.js";
import { FakeTime } from "../support/engine-fakes.js";
import { MemoryLease, MemoryLedger } from "../support/memory-lease.js";
import { freePort, waitFor } from "../support/network.js";
import { acquireBroker, type TestBroker } from "../support/test-servers.js";

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("HomeKit bridge under hot standby: on the leader only (integration)", function () {
  this.timeout(60_000);
  let broker: TestBroker;
  let scratch: string;
  const engines: Engine[] = [];

  before(async () => {
    broker = await acquireBroker("homekit-standby");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-homekit-standby-"));
  });
  after(async () => {
    for (const engine of engines) await engine.stop();
    await broker?.release();
    await rm(scratch, { recursive: true, force: true });
  });

  it("publishes the bridge on the leader alone and moves it to the standby that takes over", async () => {
    const time = new FakeTime();
    const lease = new MemoryLease(time);
    const ledger = new MemoryLedger(lease);
    const port = await freePort();
    const loggers = new Map<string, MemoryLogger>();
    const build = (instance: string) => {
      const logger = new MemoryLogger();
      loggers.set(instance, logger);
      const engine = createEngine({
        automationsDir: path.join(scratch, "no-automations"),
        logger,
        clock: time,
        timer: time,
        handleSignals: false,
        config: {
          HTTP_PORT: 0,
          MQTT_HOST: broker.host,
          MQTT_PORT: broker.port,
          DATA_DIR: path.join(scratch, instance),
          DEVICE_REGISTRY_ENABLED: false,
          HOMEKIT_ENABLED: true,
          HOMEKIT_PORT: port,
          HOMEKIT_SETUP_CODE: "031-45-154",
          HOMEKIT_BRIDGE_NAME: "Hearth Standby",
          HOMEKIT_BIND: ["127.0.0.1"],
        },
        leadership: { lease, ledger, instance },
      });
      engines.push(engine);
      return engine;
    };
    const published = (engine: Engine) => {
      const bridge = engine.services.get("homekit");
      if (!isHomeKitBridge(bridge)) throw new Error("no HomeKit bridge registered");
      return bridge.describe(false).bridges.filter((entry) => entry.port !== null);
    };
    const startedOn = (instance: string) =>
      loggers.get(instance)?.entries.filter((entry) => entry.msg === "HomeKit bridge started").length ?? 0;

    const alpha = build("alpha");
    const beta = build("beta");
    await alpha.start();
    await beta.start();
    expect(alpha.leadership.role).to.equal("leader");
    expect(beta.leadership.role).to.equal("standby");
    expect(published(alpha).map((entry) => entry.port)).to.deep.equal([port]);
    expect(published(beta), "the standby publishes no bridge").to.deep.equal([]);
    expect([startedOn("alpha"), startedOn("beta")]).to.deep.equal([1, 0]);
    expect(await accepts(port)).to.equal(true);

    await alpha.stop();
    expect(published(alpha)).to.deep.equal([]);
    time.advance(1000);
    await waitFor("beta to publish the bridge", () => published(beta).length === 1, 20_000);
    expect(beta.leadership.role).to.equal("leader");
    expect(published(beta).map((entry) => entry.port)).to.deep.equal([port]);
    expect([startedOn("alpha"), startedOn("beta")]).to.deep.equal([1, 1]);
    expect(await accepts(port)).to.equal(true);
  });
});
