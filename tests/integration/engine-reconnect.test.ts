import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import mqtt from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine } from "../../src/index.js";
import { waitFor } from "../support/engine-fakes.js";
import { OwnBroker } from "../support/own-broker.js";

/** Uses a broker this test owns: the shared one must never be restarted. */
describe("engine across broker outages", () => {
  let broker: OwnBroker;
  let dir: string;
  let engine: Engine | undefined;
  const clients: mqtt.MqttClient[] = [];

  beforeEach(async () => {
    broker = await OwnBroker.create();
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "engine-reconnect-"));
    await writeFile(
      path.join(dir, "echo.ts"),
      `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class Echo extends Automation {
  readonly name = "echo";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "outage/in/#" }];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "mqtt") this.mqtt.publish("outage/out", { from: context.topic }, { qos: 1 });
  }
}
`,
    );
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    for (const client of clients.splice(0)) client.end(true);
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  function startEngine(): Engine {
    engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      httpPort: 0,
      httpHost: "127.0.0.1",
      config: { MQTT_HOST: "127.0.0.1", MQTT_PORT: broker.port, DEVICE_REGISTRY_ENABLED: false },
    });
    return engine;
  }

  async function observe(): Promise<{ topic: string; payload: unknown }[]> {
    const received: { topic: string; payload: unknown }[] = [];
    const client = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    clients.push(client);
    client.on("message", (topic, payload) => received.push({ topic, payload: JSON.parse(payload.toString()) }));
    await client.subscribeAsync("outage/out", { qos: 1 });
    return received;
  }

  async function readyz(running: Engine): Promise<number> {
    return (await fetch(`http://127.0.0.1:${running.httpPort}/readyz`)).status;
  }

  it("starts without a broker, reports not ready, and becomes ready once the broker appears", async () => {
    const running = startEngine();
    await running.start();
    expect(running.isReady).to.equal(false);
    expect(await readyz(running)).to.equal(503);
    const body = await (await fetch(`http://127.0.0.1:${running.httpPort}/readyz`)).json();
    expect(body).to.deep.include({ status: "not ready", checks: { mqtt: false, engine: true } });
    await broker.start();
    await waitFor(() => running.isReady, 20_000, "the engine to connect");
    expect(await readyz(running)).to.equal(200);
  });

  it("reconnects after a broker restart, resubscribes, and sends publishes queued while offline", async () => {
    await broker.start();
    const running = startEngine();
    await running.start();
    expect(running.isReady).to.equal(true);

    let received = await observe();
    const sender = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    clients.push(sender);
    await sender.publishAsync("outage/in/before", "{}");
    await waitFor(() => received.length === 1, 5000, "the echo before the outage");

    await broker.stop();
    await waitFor(() => !running.mqtt.isConnected, 10_000, "the engine to notice the outage");
    running.mqtt.publish("outage/out", { from: "offline" }, { qos: 1 });

    await broker.start();
    received = await observe();
    await waitFor(() => running.mqtt.isConnected, 20_000, "the engine to reconnect");
    await waitFor(
      () => received.some((message) => (message.payload as { from: string }).from === "offline"),
      5000,
      "the queued publish",
    );

    const second = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    clients.push(second);
    // The engine resubscribed: a message on its wildcard topic fires the automation again.
    await waitFor(
      () => {
        void second.publishAsync("outage/in/after", "{}");
        return received.some((message) => (message.payload as { from: string }).from === "outage/in/after");
      },
      10_000,
      "the echo after the restart",
    );
    expect(running.mqtt.stats.reconnects).to.be.at.least(1);
  });
});
