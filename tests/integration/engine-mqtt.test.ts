import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import mqtt from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine } from "../../src/index.js";
import { waitFor } from "../support/engine-fakes.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";

describe("engine against a real broker", () => {
  let broker: TestBroker;
  let dir: string;
  let engine: Engine | undefined;
  let observer: mqtt.MqttClient | undefined;

  before(async () => {
    broker = await acquireBroker("engine-mqtt");
  });
  after(async () => {
    await broker.release();
  });
  beforeEach(async () => {
    // Inside the checkout, so the automation's `import "hearth"` resolves by package self-reference.
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "engine-mqtt-"));
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await observer?.endAsync();
    observer = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("discovers an automation file, fires it on a message, and its device command reaches another client", async () => {
    const prefix = uniqueTopicPrefix("z2m");
    // The file imports "hearth" by name, as a user's automation does.
    await writeFile(
      path.join(dir, "motion-light.ts"),
      `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class MotionLight extends Automation {
  readonly name = "motion-light";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "${prefix}/+/motion", filter: (p) => p.occupancy === true }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    const room = context.topic.split("/").at(-2);
    this.mqtt.publishToDevice(room + "_light", { state: "ON", reason: "motion" });
  }
}
`,
    );
    const logger = new MemoryLogger();
    const url = new URL(broker.url);
    engine = createEngine({
      automationsDir: dir,
      logger,
      httpPort: 0,
      httpHost: "127.0.0.1",
      config: {
        MQTT_HOST: url.hostname,
        MQTT_PORT: Number(url.port || 1883),
        ZIGBEE2MQTT_PREFIX: prefix,
        DEVICE_REGISTRY_ENABLED: false,
      },
    });
    await engine.start();
    expect(engine.manager.getAutomation("motion-light")?.error).to.equal(undefined);
    expect(engine.manager.getAutomation("motion-light")?.status).to.equal("running");
    const ready = await fetch(`http://127.0.0.1:${engine.httpPort}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.include({ status: "ready" });

    observer = await mqtt.connectAsync(broker.url);
    const received: { topic: string; payload: unknown }[] = [];
    observer.on("message", (topic, payload) => received.push({ topic, payload: JSON.parse(payload.toString()) }));
    await observer.subscribeAsync(`${prefix}/+/set`);

    await observer.publishAsync(`${prefix}/hall/motion`, JSON.stringify({ occupancy: false }));
    await observer.publishAsync(`${prefix}/hall/motion`, JSON.stringify({ occupancy: true }));
    await waitFor(() => received.length > 0, 5000, "the device command");
    expect(received[0]).to.deep.equal({
      topic: `${prefix}/hall_light/set`,
      payload: { state: "ON", reason: "motion" },
    });
    expect(engine.manager.getAutomation("motion-light")?.stats.runs).to.equal(1);
  });

  it("lists a broken file as failed and keeps the engine running", async () => {
    await writeFile(path.join(dir, "broken.ts"), "export default 42;\n");
    const url = new URL(broker.url);
    engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      httpPort: 0,
      config: { MQTT_HOST: url.hostname, MQTT_PORT: Number(url.port || 1883), DEVICE_REGISTRY_ENABLED: false },
    });
    await engine.start();
    expect(engine.manager.listAutomations()).to.have.length(1);
    expect(engine.manager.getAutomation("broken")).to.include({ status: "failed" });
    expect(engine.isReady).to.equal(true);
    const health = await fetch(`http://127.0.0.1:${engine.httpPort}/healthz`);
    expect(await health.json()).to.deep.equal({ status: "ok" });
  });
});
