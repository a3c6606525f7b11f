/**
 * Engine throughput and per-message cost against a real broker (BENCH_MQTT_URL, default
 * mqtt://127.0.0.1:1883), next to a plain mqtt.js subscriber with the same subscriptions.
 *
 *   npm run bench:engine            (BENCH_MESSAGES=200000 by default)
 *
 * Each scenario publishes Zigbee2MQTT-like JSON over 200 topics, half of which match a
 * subscription, from a worker thread in closed-loop chunks (so broker queues stay short and
 * throughput reflects the consumer). Per-message cost is the main thread's busy time
 * (event-loop utilisation) divided by delivered messages.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import mqtt from "mqtt";
import { MemoryLogger } from "../src/adapters/logging/memory-logger.js";
import { topicMatches } from "../src/domain/automation/topic-filter.js";
import { Automation, createEngine, type Trigger } from "../src/index.js";

const BROKER_URL = process.env.BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883";
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200_000);
/** The machine is shared: each measurement is repeated and the best round kept. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHUNK = 10_000;
const IDLE_TIMEOUT_MS = 5_000;
const PREFIX = `hearth-bench-${process.pid}/z2m`;

let executes = 0;

class CountingAutomation extends Automation {
  constructor(
    readonly name: string,
    readonly triggers: Trigger[],
  ) {
    super();
  }
  execute(): void {
    executes++;
  }
}

interface Scenario {
  label: string;
  automations: { name: string; filters: string[] }[];
  /** 200 topics: the first 100 match exactly one subscription, the rest none. */
  topics: string[];
}

function smallScenario(): Scenario {
  const automations = Array.from({ length: 100 }, (_, i) => ({
    name: `exact-${i}`,
    filters: [`${PREFIX}/device_${i}`],
  }));
  for (let k = 0; k < 5; k++) {
    automations.push({ name: `wild-${k}`, filters: [k < 4 ? `${PREFIX}/sensor_${k}/+` : `${PREFIX}/sensor_${k}/#`] });
  }
  const matching = [
    ...Array.from({ length: 95 }, (_, i) => `${PREFIX}/device_${i}`),
    ...Array.from({ length: 5 }, (_, k) => `${PREFIX}/sensor_${k}/temperature`),
  ];
  return { label: "100 automations (105 subscriptions, 5 wildcard)", automations, topics: withUnmatched(matching) };
}

function largeScenario(): Scenario {
  const automations = Array.from({ length: 1000 }, (_, i) => {
    const filters = Array.from({ length: 9 }, (_, j) => `${PREFIX}/device_${i * 9 + j}`);
    filters.push(i % 2 === 0 ? `${PREFIX}/sensor_${i}/+` : `${PREFIX}/zone_${i}/#`);
    return { name: `auto-${i}`, filters };
  });
  const matching = [
    ...Array.from({ length: 95 }, (_, i) => `${PREFIX}/device_${i * 94}`),
    ...Array.from({ length: 5 }, (_, k) =>
      k % 2 === 0 ? `${PREFIX}/sensor_${k * 100}/temperature` : `${PREFIX}/zone_${k * 100 + 1}/a/b`,
    ),
  ];
  return {
    label: "1 000 automations (10 000 subscriptions, 1 000 wildcard)",
    automations,
    topics: withUnmatched(matching),
  };
}

function withUnmatched(matching: string[]): string[] {
  return [...matching, ...Array.from({ length: 100 }, (_, i) => `${PREFIX}/unmatched_${i}`)];
}

/** Executes each published message must cause, from the reference matcher. */
function expectedPerTopic(scenario: Scenario): Map<string, number> {
  const counts = new Map<string, number>();
  const filters = scenario.automations.flatMap((automation) => automation.filters);
  for (const topic of scenario.topics)
    counts.set(topic, filters.filter((filter) => topicMatches(filter, topic)).length);
  return counts;
}

class Publisher {
  private readonly worker: Worker;
  private waiting: ((value: unknown) => void) | undefined;
  private published = 0;

  constructor(topics: string[]) {
    this.worker = new Worker(new URL("./engine-publisher.mjs", import.meta.url), {
      workerData: { url: BROKER_URL, topics },
    });
    this.worker.on("message", (message) => this.waiting?.(message));
  }
  private next(): Promise<unknown> {
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
  ready(): Promise<unknown> {
    return this.next();
  }
  async publish(count: number): Promise<void> {
    const answer = this.next();
    this.worker.postMessage({ start: this.published, count });
    this.published += count;
    await answer;
  }
  async close(): Promise<void> {
    const answer = this.next();
    this.worker.postMessage("close");
    await answer;
    await this.worker.terminate();
  }
}

interface Measurement {
  executes: number;
  expected: number;
  delivered: number;
  seconds: number;
  busyMsPerMessage: number;
}

/** Publishes MESSAGES in closed-loop chunks and waits for `count()` to reach each chunk's target. */
async function drive(scenario: Scenario, count: () => number, delivered: () => number): Promise<Measurement> {
  const perTopic = expectedPerTopic(scenario);
  const publisher = new Publisher(scenario.topics);
  await publisher.ready();
  const startCount = count();
  const startDelivered = delivered();
  let expected = 0;
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  for (let sent = 0; sent < MESSAGES; sent += CHUNK) {
    const size = Math.min(CHUNK, MESSAGES - sent);
    for (let n = sent; n < sent + size; n++)
      expected += perTopic.get(scenario.topics[n % scenario.topics.length] as string) ?? 0;
    await publisher.publish(size);
    let last = count();
    let lastChange = performance.now();
    while (count() - startCount < expected) {
      await new Promise((resolve) => setImmediate(resolve));
      if (count() !== last) {
        last = count();
        lastChange = performance.now();
      } else if (performance.now() - lastChange > IDLE_TIMEOUT_MS) {
        break; // Messages were dropped somewhere; report what arrived.
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const busy = performance.eventLoopUtilization(elu);
  await publisher.close();
  const messages = delivered() - startDelivered;
  return {
    executes: count() - startCount,
    expected,
    delivered: messages,
    seconds,
    busyMsPerMessage: messages > 0 ? busy.active / messages : Number.NaN,
  };
}

async function plainSubscriber(scenario: Scenario): Promise<Measurement> {
  const filters = [...new Set(scenario.automations.flatMap((automation) => automation.filters))];
  const perTopic = expectedPerTopic(scenario);
  const client = await mqtt.connectAsync(BROKER_URL, { reconnectPeriod: 0 });
  let handled = 0;
  let received = 0;
  client.on("message", (topic, payload) => {
    received++;
    // The least any consumer must do: parse the JSON and run the handlers for the topic.
    const parsed = JSON.parse(payload.toString());
    if (parsed) handled += perTopic.get(topic) ?? 0;
  });
  for (let at = 0; at < filters.length; at += 500) await client.subscribeAsync(filters.slice(at, at + 500));
  const result = await drive(
    scenario,
    () => handled,
    () => received,
  );
  await client.endAsync();
  return result;
}

async function engineRun(
  scenario: Scenario,
): Promise<Measurement & { rssAfterStartMb: number; rssAfterRunMb: number }> {
  await mkdir("tmp", { recursive: true });
  const dir = await mkdtemp(path.resolve("tmp", "bench-automations-"));
  const url = new URL(BROKER_URL);
  const engine = createEngine({
    automationsDir: dir,
    logger: new MemoryLogger(),
    config: {
      MQTT_HOST: url.hostname,
      MQTT_PORT: Number(url.port || 1883),
      HTTP_PORT: 0,
      DEVICE_REGISTRY_ENABLED: false,
      ZIGBEE2MQTT_PREFIX: PREFIX,
    },
  });
  await engine.start();
  for (const automation of scenario.automations) {
    await engine.manager.register(
      new CountingAutomation(
        automation.name,
        automation.filters.map((topic) => ({ type: "mqtt", topic })),
      ),
    );
  }
  // Subscriptions are sent without waiting for SUBACKs; a round trip through the broker settles them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssAfterStartMb = process.memoryUsage().rss / 2 ** 20;
  const result = await drive(
    scenario,
    () => executes,
    () => engine.mqtt.stats.received,
  );
  const rssAfterRunMb = process.memoryUsage().rss / 2 ** 20;
  await engine.stop();
  await rm(dir, { recursive: true, force: true });
  return { ...result, rssAfterStartMb, rssAfterRunMb };
}

function perSecond(measurement: Measurement): number {
  return measurement.executes / measurement.seconds;
}

const format = (value: number, digits = 0) =>
  value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(
  `Engine benchmark: ${format(MESSAGES)} messages per run over 200 topics (100 matching), broker ${BROKER_URL}, Node ${process.version}`,
);
function better<T extends Measurement>(best: T | undefined, next: T): T {
  return best === undefined || perSecond(next) > perSecond(best) ? next : best;
}

console.log(`Best of ${ROUNDS} alternating rounds per figure (BENCH_ROUNDS).`);
const rows: { scenario: Scenario; plain: Measurement; engine: Awaited<ReturnType<typeof engineRun>> }[] = [];
for (const scenario of [smallScenario(), largeScenario()]) {
  let plain: Measurement | undefined;
  let engine: Awaited<ReturnType<typeof engineRun>> | undefined;
  let leastBusyPlain = Number.POSITIVE_INFINITY;
  let leastBusyEngine = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const plainRound = await plainSubscriber(scenario);
    const engineRound = await engineRun(scenario);
    plain = better(plain, plainRound);
    engine = better(engine, engineRound);
    leastBusyPlain = Math.min(leastBusyPlain, plainRound.busyMsPerMessage);
    leastBusyEngine = Math.min(leastBusyEngine, engineRound.busyMsPerMessage);
  }
  if (!plain || !engine) throw new Error("BENCH_ROUNDS must be at least 1");
  plain.busyMsPerMessage = leastBusyPlain;
  engine.busyMsPerMessage = leastBusyEngine;
  rows.push({ scenario, plain, engine });
  console.log(`\n${scenario.label}`);
  console.log(
    `  plain mqtt.js: ${format(perSecond(plain))} executes/s (${format(plain.executes)}/${format(plain.expected)} in ${format(plain.seconds, 2)} s), main-thread busy ${format(plain.busyMsPerMessage * 1000, 2)} µs/message`,
  );
  console.log(
    `  engine:        ${format(perSecond(engine))} executes/s (${format(engine.executes)}/${format(engine.expected)} in ${format(engine.seconds, 2)} s), main-thread busy ${format(engine.busyMsPerMessage * 1000, 2)} µs/message`,
  );
  console.log(`  ratio engine/plain: ${format((perSecond(engine) / perSecond(plain)) * 100, 1)} %`);
  console.log(
    `  engine RSS: ${format(engine.rssAfterStartMb, 1)} MB after start, ${format(engine.rssAfterRunMb, 1)} MB after the run`,
  );
}
const [small, large] = rows;
if (small && large) {
  const growth = large.engine.busyMsPerMessage / small.engine.busyMsPerMessage;
  const plainGrowth = large.plain.busyMsPerMessage / small.plain.busyMsPerMessage;
  console.log(
    `\nPer-message cost, 10 000 vs 105 subscriptions: engine ×${format(growth, 2)} (target ≤ 1.5), plain subscriber ×${format(plainGrowth, 2)}`,
  );
}
process.exit(0);
