/**
 * Reload on save, run modes and traces against a real broker (TEST_MQTT_URL, else
 * testcontainers, else embedded aedes): the parts the test kit fakes, for real.
 */
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import mqtt from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine } from "../../src/index.js";
import { waitFor } from "../support/engine-fakes.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";

/** An automation file counting its runs in state under `<label>.runs`, optionally slow, in a run mode. */
function automationSource(options: {
  name: string;
  topic: string;
  label: string;
  mode?: string;
  gateKey?: string;
}): string {
  return `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class Counted extends Automation {
  readonly name = ${JSON.stringify(options.name)};
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: ${JSON.stringify(options.topic)}, filter: (p) => p.skip !== true }];
  ${options.mode ? `override readonly mode = ${JSON.stringify(options.mode)} as const;` : ""}
  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    this.logger.info("run of ${options.label}", { n: context.payload.n });
    this.state.set("${options.label}.runs", this.state.get<number>("${options.label}.runs", 0)! + 1);
    ${
      options.gateKey
        ? `await new Promise<void>((resolve) => {
      const check = () => (this.state.get("${options.gateKey}") === true ? resolve() : this.after(5, check));
      check();
    });`
        : ""
    }
    this.mqtt.publish(${JSON.stringify(`${options.topic}/done`)}, { by: ${JSON.stringify(options.label)}, n: context.payload.n });
  }
}
`;
}

describe("automation authoring against a real broker: reload, run modes, traces", function () {
  this.timeout(60_000);
  let broker: TestBroker;
  let dir: string;
  let engine: Engine | undefined;
  let observer: mqtt.MqttClient | undefined;
  let prefix: string;

  before(async () => {
    broker = await acquireBroker("automation-authoring");
  });
  after(async () => {
    await broker.release();
  });
  beforeEach(async () => {
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "authoring-"));
    prefix = uniqueTopicPrefix("authoring");
    observer = await mqtt.connectAsync(broker.url);
  });
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await observer?.endAsync();
    observer = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function start(watch: boolean): Promise<Engine> {
    const url = new URL(broker.url);
    engine = createEngine({
      automationsDir: dir,
      logger: new MemoryLogger(),
      httpPort: 0,
      httpHost: "127.0.0.1",
      watch,
      typeCheck: false,
      config: {
        MQTT_HOST: url.hostname,
        MQTT_PORT: Number(url.port || 1883),
        ZIGBEE2MQTT_PREFIX: prefix,
        DEVICE_REGISTRY_ENABLED: false,
      },
    });
    await engine.start();
    await waitFor(() => engine?.mqtt.isConnected === true, 10_000, "the engine's MQTT connection");
    return engine;
  }

  async function send(topic: string, payload: Record<string, unknown>): Promise<void> {
    await observer?.publishAsync(topic, JSON.stringify(payload));
  }

  it("reloads a saved file without a restart, keeps the old version on a broken save, forgets a deleted one", async () => {
    const file = path.join(dir, "counter.ts");
    const topic = `${prefix}/counter`;
    await writeFile(file, automationSource({ name: "counter", topic, label: "v1" }));
    const running = await start(true);

    // An editor's save: several writes in a burst cause one reload.
    for (let write = 0; write < 3; write++)
      await writeFile(file, automationSource({ name: "counter", topic, label: "v2" }));
    await waitFor(() => running.manager.getAutomation("counter")?.reloads === 1, 10_000, "the reload");
    await send(topic, { n: 1 });
    await waitFor(() => running.state.get("v2.runs") === 1, 5000, "a run of the new version");
    expect(running.state.has("v1.runs")).to.equal(false);
    expect(running.manager.getAutomation("counter")?.reloads).to.equal(1);

    await writeFile(file, "export default class {"); // a syntax error mid-edit
    await waitFor(() => running.manager.getAutomation("counter")?.reloadError != null, 10_000, "the failed reload");
    expect(running.manager.getAutomation("counter")?.reloadError?.message).to.match(/failed to load/);
    await send(topic, { n: 2 });
    await waitFor(() => running.state.get("v2.runs") === 2, 5000, "the previous version still running");

    await unlink(file);
    await waitFor(() => running.manager.getAutomation("counter") === null, 10_000, "the removal");
    expect(running.mqtt.subscriptionCount).to.equal(0);
  });

  it("keeps handler counts and broker subscriptions flat over 200 reloads of one automation", async () => {
    const file = path.join(dir, "counter.ts");
    const topic = `${prefix}/counter`;
    await writeFile(file, automationSource({ name: "counter", topic, label: "r" }));
    const running = await start(false);
    const subscriptionsBefore = running.mqtt.subscriptionCount;
    const heapBefore = process.memoryUsage().heapUsed;
    for (let reload = 0; reload < 200; reload++) {
      expect((await running.manager.loadFile(file)).status).to.equal("reloaded");
    }
    const heapAfter = process.memoryUsage().heapUsed;
    console.log(`      heap change over 200 reloads: ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB`);
    expect(running.manager.getAutomation("counter")?.reloads).to.equal(200);
    expect(running.mqtt.subscriptionCount).to.equal(subscriptionsBefore);

    const done: unknown[] = [];
    observer?.on("message", (_topic, payload) => done.push(JSON.parse(payload.toString())));
    await observer?.subscribeAsync(`${topic}/done`);
    await send(topic, { n: 1 });
    await waitFor(() => done.length >= 1, 5000, "the one run");
    // One more message through the broker: anything subscribed twice would have run twice by now.
    await send(topic, { n: 2 });
    await waitFor(() => done.length >= 2, 5000, "the second run");
    expect(running.state.get("r.runs")).to.equal(2);
    expect(done).to.deep.equal([
      { by: "r", n: 1 },
      { by: "r", n: 2 },
    ]);
  });

  it("single drops, and queued runs in order, firings arriving from the broker while a run is in progress", async () => {
    await writeFile(
      path.join(dir, "single.ts"),
      automationSource({
        name: "single-one",
        topic: `${prefix}/single`,
        label: "single",
        mode: "single",
        gateKey: "open",
      }),
    );
    await writeFile(
      path.join(dir, "queued.ts"),
      automationSource({
        name: "queued-one",
        topic: `${prefix}/queued`,
        label: "queued",
        mode: "queued",
        gateKey: "open",
      }),
    );
    const running = await start(false);
    const done: { by: string; n: number }[] = [];
    observer?.on("message", (_topic, payload) => done.push(JSON.parse(payload.toString())));
    await observer?.subscribeAsync(`${prefix}/+/done`);

    for (let n = 1; n <= 3; n++) {
      await send(`${prefix}/single`, { n });
      await send(`${prefix}/queued`, { n });
    }
    await waitFor(
      () => (running.manager.getAutomation("single-one")?.stats.dropped ?? 0) === 2,
      5000,
      "two dropped firings",
    );
    await waitFor(() => running.manager.getAutomation("queued-one")?.queued === 2, 5000, "two queued firings");
    running.state.set("open", true);
    await waitFor(() => done.length === 4, 5000, "the runs to finish");
    expect(done.filter((message) => message.by === "single").map((message) => message.n)).to.deep.equal([1]);
    expect(done.filter((message) => message.by === "queued").map((message) => message.n)).to.deep.equal([1, 2, 3]);
  });

  it("traces runs with their trigger, log lines, publishes and state changes, and counts filter rejections", async () => {
    const topic = `${prefix}/traced`;
    await writeFile(path.join(dir, "traced.ts"), automationSource({ name: "traced", topic, label: "traced" }));
    const running = await start(false);
    await send(topic, { n: 7 });
    await send(topic, { skip: true, big: "x".repeat(5000) });
    await waitFor(
      () => (running.manager.getTraces("traced")?.traces[0]?.status ?? "running") !== "running",
      5000,
      "the run",
    );
    await waitFor(() => (running.manager.getTraces("traced")?.rejected[0]?.count ?? 0) === 1, 5000, "the rejection");

    const response = await fetch(`http://127.0.0.1:${running.httpPort}/api/automations/traced/traces`);
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { traces: Record<string, unknown>[]; rejected: Record<string, unknown>[] };
    const [trace] = body.traces;
    expect(trace).to.include({ automation: "traced", status: "ok" });
    expect(trace?.trigger).to.deep.equal({ type: "mqtt", topic, payload: { n: 7 } });
    expect(trace?.logs).to.have.length(1);
    expect((trace?.logs as { msg: string }[] | undefined)?.[0]?.msg).to.equal("run of traced");
    expect(trace?.published).to.deep.equal([{ topic: `${topic}/done`, payload: { by: "traced", n: 7 } }]);
    expect(trace?.stateChanges).to.deep.equal([{ key: "traced.runs", newValue: 1 }]);
    expect(body.rejected[0]).to.include({ trigger: 0, count: 1 });
    // The 5000-character payload is cut to AUTOMATION_TRACE_PAYLOAD_BYTES (2048 by default).
    expect(body.rejected[0]?.lastPayload).to.include({ truncated: true });
  });
});
