import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import { createLogger } from "../../src/adapters/logging/winston-logger.js";
import { Automation } from "../../src/application/automation/sdk/automation.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import { engineRoutes } from "../../src/composition/engine-routes.js";
import type { Trigger, TriggerContext } from "../../src/domain/automation/trigger.js";
import { openEventStream } from "../support/event-stream-client.js";
import { acquireBroker, type TestBroker } from "../support/test-servers.js";

class Chime extends Automation {
  readonly name = "chime";
  readonly triggers: Trigger[] = [{ type: "webhook", path: "chime", methods: ["POST"] }];
  async execute(_context: TriggerContext): Promise<void> {
    this.logger.warn("Chime rang");
    this.state.set("chime.rang", true);
  }
}

describe("the engine's event stream through createEngine (GET /api/events)", function () {
  this.timeout(60_000);
  let broker: TestBroker;
  let engine: Engine;
  let dir: string;

  before(async () => {
    broker = await acquireBroker("engine-events");
    dir = await mkdtemp(path.join(tmpdir(), "hearth-engine-events-"));
    const { logger, buffer } = createLogger({
      level: "info",
      json: true,
      stream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    engine = createEngine({
      automationsDir: dir,
      logger,
      logBuffer: buffer,
      httpPort: 0,
      httpHost: "127.0.0.1",
      routes: engineRoutes({ version: "9.9.9" }),
      handleSignals: false,
      config: {
        MQTT_HOST: broker.host,
        MQTT_PORT: broker.port,
        HTTP_TOKEN: "tok",
        DEVICE_REGISTRY_ENABLED: false,
        STATE_PERSIST: false,
      },
    });
    await engine.start();
    await engine.manager.register(new Chime());
  });

  after(async () => {
    await engine?.stop();
    await broker?.release();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("pushes a webhook run's state change, log line and outcome, and ends the stream when the engine stops", async () => {
    const base = `http://127.0.0.1:${engine.httpPort}`;
    expect((await openEventStream(`${base}/api/events`, {})).status).to.equal(401);
    const stream = await openEventStream(`${base}/api/events`, { Authorization: "Bearer tok" });
    expect(stream.status).to.equal(200);
    await stream.comment(": connected");
    const rang = await fetch(`${base}/webhook/chime`, { method: "POST" });
    expect(rang.status).to.be.below(300);
    expect((await stream.next((m) => m.event === "state")).data).to.deep.equal({
      key: "chime.rang",
      deleted: false,
      value: true,
    });
    const line = await stream.next((m) => m.event === "log" && (m.data as { msg: string }).msg === "Chime rang");
    expect((line.data as { level: number }).level).to.equal(40);
    const run = await stream.next((m) => m.event === "automation.run");
    expect(run.data).to.include({ name: "chime", outcome: "ok" });

    await engine.stop();
    await stream.ended;
    expect(engine.eventStreams.size).to.equal(0);
  });
});
