import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine, type ServicePlugin } from "../../src/index.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";

describe("engine lifecycle", () => {
  let broker: TestBroker;
  let dir: string;

  before(async () => {
    broker = await acquireBroker("engine-lifecycle");
  });
  after(async () => {
    await broker.release();
  });
  beforeEach(async () => {
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "engine-lifecycle-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function engineWith(events: string[], extra: { automationsDir?: string; httpPort?: number } = {}): Engine {
    const url = new URL(broker.url);
    const plugin: ServicePlugin & { started: boolean } = {
      serviceKey: "recorder",
      started: false,
      onStart() {
        this.started = true;
        events.push("service onStart");
      },
      onStop() {
        events.push("service onStop");
      },
    };
    return createEngine({
      automationsDir: extra.automationsDir ?? dir,
      logger: new MemoryLogger(),
      httpPort: extra.httpPort ?? 0,
      httpHost: "127.0.0.1",
      state: { persist: true, filePath: path.join(dir, "state.json") },
      deviceRegistry: { persist: true, filePath: path.join(dir, "devices.json") },
      services: { recorder: plugin },
      config: {
        MQTT_HOST: url.hostname,
        MQTT_PORT: Number(url.port || 1883),
        ZIGBEE2MQTT_PREFIX: uniqueTopicPrefix("life"),
        DEVICE_REGISTRY_ENABLED: true,
      },
    });
  }

  it("stops in the spec's order: automations, services, state, device registry, MQTT, HTTP", async () => {
    await writeFile(
      path.join(dir, "recorder.ts"),
      `import { Automation, type Trigger } from "hearth";
export default class Recorder extends Automation {
  readonly name = "recorder";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "lifecycle/never" }];
  async execute(): Promise<void> {}
  override async onStart(): Promise<void> { this.state.set("started", true); }
  override async onStop(): Promise<void> { (globalThis as any).__hearthEvents.push("automation onStop"); }
}
`,
    );
    const events: string[] = [];
    (globalThis as { __hearthEvents?: string[] }).__hearthEvents = events;
    const engine = engineWith(events);
    await engine.start();
    expect(events).to.deep.equal(["service onStart"]);
    const port = engine.httpPort;

    const wrap = <T extends object>(target: T, method: keyof T & string, label: string) => {
      const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
      (target as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        events.push(label);
        return original(...args);
      };
    };
    wrap(engine.state, "save", "state saved");
    wrap(engine.deviceRegistry as object as { stop(): Promise<void> }, "stop", "device registry saved");
    engine.mqtt.onConnectionChange((connected) => {
      if (!connected) events.push("mqtt disconnected");
    });
    wrap(engine.httpServer as object as { close(): Promise<void> }, "close", "http closed");

    await engine.stop();
    expect(events).to.deep.equal([
      "service onStart",
      "automation onStop",
      "service onStop",
      "state saved",
      "device registry saved",
      "mqtt disconnected",
      "http closed",
    ]);
    expect(JSON.parse(await readFile(path.join(dir, "state.json"), "utf8"))).to.deep.equal({ started: true });
    await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => expect.fail("the HTTP server should be closed"),
      () => undefined,
    );
    delete (globalThis as { __hearthEvents?: string[] }).__hearthEvents;
  });

  it("rolls back what it started when a start step fails", async () => {
    const events: string[] = [];
    // The HTTP server starts after MQTT, the device registry and the automations, so a
    // taken port makes every earlier step roll back.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const takenPort = (blocker.address() as AddressInfo).port;
    const engine = engineWith(events, { httpPort: takenPort });
    let failure: unknown;
    try {
      await engine.start();
    } catch (error) {
      failure = error;
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expect(failure).to.be.instanceOf(Error);
    expect(engine.mqtt.isConnected).to.equal(false);
    expect(engine.httpPort).to.equal(null);
    expect(events).to.deep.equal([]);
  });
  it("starts with a warning and no automations when the automations directory is missing", async () => {
    const engine = engineWith([], { automationsDir: path.join(dir, "does-not-exist") });
    await engine.start();
    try {
      expect(engine.manager.listAutomations()).to.deep.equal([]);
      // The engine records what it logs in its ring buffer (/api/logs) as well as in the given logger.
      const warnings = engine.logBuffer.query({ level: 40 }).map((entry) => entry.msg);
      expect(warnings.some((msg) => msg.includes("does not exist"))).to.equal(true);
    } finally {
      await engine.stop();
    }
  });
});
