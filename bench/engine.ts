/**
 * Engine cost per message against a real broker (BENCH_MQTT_URL, default
 * mqtt://127.0.0.1:1883), next to a plain mqtt.js subscriber with the same subscriptions
 * measured in the same run.
 *
 *   npm run bench:engine                    this Node
 *   npm run bench:engine -- --node 24       the same bench on Node 24 (npx -p node@24)
 *   npm run bench:engine -- --node 20,22,24 one after the other
 *
 * The default rows measure what users run: automation files (`async execute(context)` with
 * an `await` inside) written to a temporary AUTOMATIONS_DIR and loaded by createEngine with
 * default settings (traces on). A second row keeps the synchronous `execute(): void`
 * registered through `manager.register()`.
 *
 * Each scenario publishes Zigbee2MQTT-like JSON over 200 topics, half of which match a
 * subscription, from a child process in closed-loop chunks (so broker queues stay short).
 * The cost is this process's CPU time (user + system, process.cpuUsage) per matched message:
 * the broker delivers only matching messages, and the publisher runs elsewhere.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import mqtt from "mqtt";
import { MemoryLogger } from "../src/adapters/logging/memory-logger.js";
import { topicMatches } from "../src/domain/automation/topic-filter.js";
import { Automation, createEngine, type Trigger } from "../src/index.js";
import { runOnRequestedNodes } from "./other-nodes.js";

const BROKER_URL = process.env.BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883";
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
/** The machine is shared: each measurement is repeated and the least CPU per message kept. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHUNK = 10_000;
const IDLE_TIMEOUT_MS = 5_000;
const PREFIX = `hearth-bench-${process.pid}/z2m`;

runOnRequestedNodes("bench/engine.ts");

/**
 * Executes so far, and the wait for a target count: automations call `hearthBenchExecuted()`
 * (a global, so automation files reach it), which wakes the driver when the target is met.
 * Nothing polls, so waiting costs no CPU on the measured process.
 */
const tally = { count: 0, target: Number.POSITIVE_INFINITY, reached: undefined as (() => void) | undefined };
function executed(): void {
  if (++tally.count < tally.target) return;
  const reached = tally.reached;
  tally.target = Number.POSITIVE_INFINITY;
  tally.reached = undefined;
  reached?.();
}
(globalThis as { hearthBenchExecuted?: () => void }).hearthBenchExecuted = executed;
const executes = () => tally.count;

/** Resolves when `tally.count` reaches `target`, or when it has not moved for IDLE_TIMEOUT_MS (messages lost). */
function executesReach(target: number): Promise<void> {
  if (tally.count >= target) return Promise.resolve();
  return new Promise((resolve) => {
    let last = tally.count;
    const idle = setInterval(() => {
      if (tally.count !== last) {
        last = tally.count;
        return;
      }
      tally.reached = undefined;
      tally.target = Number.POSITIVE_INFINITY;
      clearInterval(idle);
      resolve();
    }, IDLE_TIMEOUT_MS);
    tally.target = target;
    tally.reached = () => {
      clearInterval(idle);
      resolve();
    };
  });
}

class CountingAutomation extends Automation {
  constructor(
    readonly name: string,
    readonly triggers: Trigger[],
  ) {
    super();
  }
  execute(): void {
    executed();
  }
}

/**
 * An automation file as users write them: a class with `async execute(context)` that
 * awaits something and then acts (here: counts), so the run's trace must follow the await.
 */
function automationFile(name: string, filters: string[]): string {
  const triggers = filters.map((topic) => `{ type: "mqtt", topic: ${JSON.stringify(topic)} }`).join(", ");
  return `import { Automation, type Trigger, type TriggerContext } from "hearth";

const bench = globalThis as { hearthBenchExecuted?: () => void };

export default class BenchAutomation extends Automation {
  readonly name = ${JSON.stringify(name)};
  readonly triggers: Trigger[] = [${triggers}];

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    const payload = await Promise.resolve(context.payload);
    if (payload.temperature !== undefined) bench.hearthBenchExecuted?.();
  }
}
`;
}

type EngineMode = "files-async" | "register-sync";

interface Scenario {
  label: string;
  mode: EngineMode;
  automations: { name: string; filters: string[] }[];
  /** 200 topics: the first 100 match exactly one subscription, the rest none. */
  topics: string[];
}

function smallScenario(mode: EngineMode): Scenario {
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
  return {
    label: `105 automations (100 exact + 5 wildcard topics), ${describeMode(mode)}`,
    mode,
    automations,
    topics: withUnmatched(matching),
  };
}

function largeScenario(mode: EngineMode): Scenario {
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
    label: `1 000 automations (10 000 subscriptions, 1 000 wildcard), ${describeMode(mode)}`,
    mode,
    automations,
    topics: withUnmatched(matching),
  };
}

function describeMode(mode: EngineMode): string {
  return mode === "files-async"
    ? "automation files with async execute, default settings"
    : "manager.register() with synchronous execute";
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
  private readonly child: ChildProcess;
  private waiting: ((value: unknown) => void) | undefined;
  private published = 0;

  constructor(topics: string[]) {
    this.child = fork(new URL("./engine-publisher.mjs", import.meta.url), [], {
      env: { ...process.env, BENCH_PUBLISHER_URL: BROKER_URL, BENCH_PUBLISHER_TOPICS: JSON.stringify(topics) },
      execArgv: [],
    });
    this.child.on("message", (message) => this.waiting?.(message));
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
    this.child.send({ start: this.published, count });
    this.published += count;
    await answer;
  }
  async close(): Promise<void> {
    const answer = this.next();
    this.child.send("close");
    await answer;
  }
}

interface Measurement {
  executes: number;
  expected: number;
  delivered: number;
  seconds: number;
  /** CPU time of this process per delivered (matched) message, in microseconds. */
  cpuMicrosPerMessage: number;
}

/** Publishes MESSAGES in closed-loop chunks and waits for `count()` to reach each chunk's target. */
async function drive(scenario: Scenario, delivered: () => number): Promise<Measurement> {
  const perTopic = expectedPerTopic(scenario);
  const publisher = new Publisher(scenario.topics);
  await publisher.ready();
  const startCount = executes();
  const startDelivered = delivered();
  let expected = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let sent = 0; sent < MESSAGES; sent += CHUNK) {
    const size = Math.min(CHUNK, MESSAGES - sent);
    for (let n = sent; n < sent + size; n++)
      expected += perTopic.get(scenario.topics[n % scenario.topics.length] as string) ?? 0;
    await publisher.publish(size);
    await executesReach(startCount + expected);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await publisher.close();
  const messages = delivered() - startDelivered;
  return {
    executes: executes() - startCount,
    expected,
    delivered: messages,
    seconds,
    cpuMicrosPerMessage: messages > 0 ? (used.user + used.system) / messages : Number.NaN,
  };
}

async function plainSubscriber(scenario: Scenario): Promise<Measurement> {
  const filters = [...new Set(scenario.automations.flatMap((automation) => automation.filters))];
  const perTopic = expectedPerTopic(scenario);
  const client = await mqtt.connectAsync(BROKER_URL, { reconnectPeriod: 0 });
  let received = 0;
  client.on("message", (topic, payload) => {
    received++;
    // The least any consumer must do: parse the JSON and run the handlers for the topic.
    const parsed = JSON.parse(payload.toString());
    if (parsed) for (let handlers = perTopic.get(topic) ?? 0; handlers > 0; handlers--) executed();
  });
  for (let at = 0; at < filters.length; at += 500) await client.subscribeAsync(filters.slice(at, at + 500));
  const result = await drive(scenario, () => received);
  await client.endAsync();
  return result;
}

async function engineRun(scenario: Scenario): Promise<Measurement & { rssAfterRunMb: number }> {
  await mkdir("tmp", { recursive: true });
  // Inside the project, so the files' `import … from "hearth"` resolves as in a user's project.
  const dir = await mkdtemp(path.resolve("tmp", "bench-automations-"));
  if (scenario.mode === "files-async") {
    await Promise.all(
      scenario.automations.map((automation) =>
        writeFile(path.join(dir, `${automation.name}.ts`), automationFile(automation.name, automation.filters)),
      ),
    );
  }
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
  if (scenario.mode === "register-sync") {
    for (const automation of scenario.automations) {
      await engine.manager.register(
        new CountingAutomation(
          automation.name,
          automation.filters.map((topic) => ({ type: "mqtt", topic })),
        ),
      );
    }
  }
  const loaded = engine.manager.runningCount;
  if (loaded !== scenario.automations.length) {
    throw new Error(`only ${loaded} of ${scenario.automations.length} automations loaded`);
  }
  // Subscriptions are sent without waiting for SUBACKs; a round trip through the broker settles them.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const result = await drive(scenario, () => engine.mqtt.stats.received);
  const rssAfterRunMb = process.memoryUsage().rss / 2 ** 20;
  await engine.stop();
  await rm(dir, { recursive: true, force: true });
  return { ...result, rssAfterRunMb };
}

function perSecond(measurement: Measurement): number {
  return measurement.executes / measurement.seconds;
}

const format = (value: number, digits = 0) =>
  value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

function leastCpu<T extends Measurement>(best: T | undefined, next: T): T {
  return best === undefined || next.cpuMicrosPerMessage < best.cpuMicrosPerMessage ? next : best;
}

console.log(
  `Engine benchmark: ${format(MESSAGES)} messages per run over 200 topics (100 matching), broker ${BROKER_URL}, Node ${process.version}`,
);
console.log(
  `Least CPU per matched message of ${ROUNDS} alternating rounds (BENCH_ROUNDS); plain subscriber measured in the same rounds.`,
);
const targets: Record<string, number> = { small: 1.3, large: 1.5 };
const scenarios: [keyof typeof targets, Scenario][] = [
  ["small", smallScenario("files-async")],
  ["small", smallScenario("register-sync")],
  ["large", largeScenario("files-async")],
  ["large", largeScenario("register-sync")],
];
/** BENCH_SCENARIOS=1,3 runs only those rows (1-based), e.g. under `node --cpu-prof`. */
const only = process.env.BENCH_SCENARIOS?.split(",").map(Number);
for (const [size, scenario] of scenarios.filter((_, at) => !only || only.includes(at + 1))) {
  let plain: Measurement | undefined;
  let engine: Awaited<ReturnType<typeof engineRun>> | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    plain = leastCpu(plain, await plainSubscriber(scenario));
    engine = leastCpu(engine, await engineRun(scenario));
  }
  if (!plain || !engine) throw new Error("BENCH_ROUNDS must be at least 1");
  const ratio = engine.cpuMicrosPerMessage / plain.cpuMicrosPerMessage;
  console.log(`\n${scenario.label}`);
  console.log(
    `  plain mqtt.js: ${format(plain.cpuMicrosPerMessage, 1)} µs CPU/matched message, ${format(perSecond(plain))} executes/s (${format(plain.executes)}/${format(plain.expected)})`,
  );
  console.log(
    `  Hearth:        ${format(engine.cpuMicrosPerMessage, 1)} µs CPU/matched message, ${format(perSecond(engine))} executes/s (${format(engine.executes)}/${format(engine.expected)}), RSS ${format(engine.rssAfterRunMb)} MB`,
  );
  console.log(
    `  ratio Hearth/plain: CPU ×${format(ratio, 2)} (target ≤ ${targets[size]}), throughput ${format(perSecond(engine) / perSecond(plain), 2)}×`,
  );
}
process.exit(0);
