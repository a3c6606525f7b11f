import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import "reflect-metadata";
import { container } from "tsyringe";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { FakeHttpClient } from "../../../src/adapters/testing/fake-http-client.js";
import { loadConfig } from "../../../src/composition/config.js";
import { createHearthContainer, ENGINE } from "../../../src/composition/container.js";
import { assembleEngine, type Engine, registerEngine } from "../../../src/composition/create-engine.js";
import { testKitEngineModule } from "../../../src/composition/engine-modules.js";
import { CLOCK } from "../../../src/ports/clock.js";
import { ITEM_REPOSITORY } from "../../../src/ports/item-repository.js";
import { MQTT_CLIENT } from "../../../src/ports/mqtt-client.js";
import { SCHEDULER } from "../../../src/ports/scheduler.js";
import { FakeMqttClient } from "../../support/engine-fakes.js";

describe("the composition root", () => {
  let dir: string;
  let database: Database | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hearth-composition-"));
  });
  afterEach(async () => {
    await database?.close();
    database = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("builds both surfaces from one container: the inventory's repositories and the engine", async () => {
    database = await openDatabase({ dataDir: ":memory:" });
    const config = loadConfig({ AUTOMATIONS_DIR: dir, HTTP_PORT: "0", DEVICE_REGISTRY_ENABLED: "false" });
    const fixed = { now: () => new Date("2026-01-01T00:00:00Z") };
    const scope = createHearthContainer({
      config,
      logger: new MemoryLogger(),
      logBuffer: new RingBufferLog(),
      database,
      jwtSecret: "composition-root-secret-0123456789abcdef",
      clock: fixed,
    });
    expect(scope.resolve(ITEM_REPOSITORY)).to.be.instanceOf(KnexItemRepository);
    const engine = scope.resolve<Engine>(ENGINE);
    expect(scope.resolve<Engine>(ENGINE), "one engine per container").to.equal(engine);
    expect(engine.config.AUTOMATIONS_DIR).to.equal(dir);
    // The engine's adapters live in its own child scope: the inventory keeps its clock.
    expect(scope.resolve(CLOCK)).to.equal(fixed);
  });

  it("lets a registration replace a module's choice: the given MQTT client is the engine's", () => {
    const scope = container.createChildContainer();
    const client = new FakeMqttClient();
    const options = {
      automationsDir: dir,
      mqttClient: client,
      logger: new MemoryLogger(),
      config: { HTTP_PORT: 0, DEVICE_REGISTRY_ENABLED: false },
    };
    registerEngine(scope, options, testKitEngineModule({ timeZone: "UTC" }));
    const engine = assembleEngine(scope, options);
    expect(scope.resolve(MQTT_CLIENT)).to.equal(client);
    expect(engine.scheduler).to.equal(scope.resolve(SCHEDULER));
    // What the module chose and nothing replaced: the test kit's HTTP client, never the network.
    expect(engine.http).to.be.instanceOf(FakeHttpClient);
  });
});
