/**
 * `npm run bench:footprint`: what Hearth costs a small board. Runs the `hearth` command (the
 * compiled dist/, as a self-hoster runs it) with the example automations, on PostgreSQL
 * and on embedded PGlite, and prints:
 *
 * - first start (empty database: created and migrated) and second start, until both HTTP
 *   surfaces answer;
 * - RSS of the process and its children (the background type check of the automations runs
 *   in a child process that exits 30 s after its last check): 5 s after start, then idle
 *   once the start-up check's process has exited, before and after a full GC;
 * - RSS after BENCH_LOAD_SECONDS of mixed inventory API and MQTT/engine load, after a GC,
 *   against the idle figure after a GC;
 * - the same for a bare Node process (the baseline measured in this run);
 * - one more first start each the way the README starts Hearth, `npm start` (npm's own
 *   process included, and Hearth from dist/ when it is current, as on a fresh install).
 *
 * Hearth runs as users start it, with Node's default flags (BENCH_NODE_FLAGS adds some); one
 * more start with the V8 flags docs/configuration.md recommends for small boards
 * ("--optimize-for-size --max-semi-space-size=1") gives their idle RSS for comparison. The
 * process tree's RSS is sampled every 100 ms from the spawn on, so each start reports its peak
 * (the start-up type check's process included) as well.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a
 * scratch database is created and dropped), BENCH_MQTT_URL (default mqtt://127.0.0.1:1883),
 * BENCH_LOAD_SECONDS (default 60), BENCH_SETTLE_SECONDS (idle time before sampling, default 5),
 * BENCH_IDLE_SECONDS (idle figures no sooner than this after a start, default 45).
 * `-- --node 22,24` runs it on those Node lines in turn (Hearth and `npm start` then run on
 * that Node too). Linux only (reads /proc). Run `npm run build` first: it measures dist/.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import mqtt from "mqtt";
import pg from "pg";
import { TYPE_CHECK_FILE } from "../src/adapters/typecheck/worker-type-checker.js";
import { freePort } from "../tests/support/network.js";
import { call } from "./hearth-child.js";
import { runOnRequestedNodes } from "./other-nodes.js";
import { descendantsOf, typeCheckDone } from "./process-tree.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const MQTT_URL = new URL(process.env.BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883");
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 5);
/**
 * Idle figures are taken this long after a start at the earliest: V8 gives memory back on its
 * own only after a while of quiet, so a start that ends sooner (no type check to wait for)
 * must not be compared at an earlier moment than one that waited for its check.
 */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 45);
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
const SMALL_BOARD_FLAGS = ["--optimize-for-size", "--max-semi-space-size=1"];
const MB = 1024 * 1024;

interface MemoryReport {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Running {
  child: ChildProcess;
  apiPort: number;
  httpPort: number;
  output(): string;
  /** Full GC in the child, then its process.memoryUsage(). */
  gcReport(): Promise<MemoryReport>;
  /** The highest RSS of the process tree sampled since the spawn. */
  peakRss(): number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** RSS of the process and everything below it: what the box pays while Hearth runs. */
function treeRss(pid: number): number {
  let total = rssOf(pid);
  for (const child of descendantsOf(pid)) {
    try {
      total += rssOf(child);
    } catch {
      // Exited meanwhile.
    }
  }
  return total;
}

async function idleSince(readyAt: number): Promise<void> {
  const left = readyAt + IDLE_SECONDS * 1000 - performance.now();
  if (left > 0) await sleep(left);
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * Starts `hearth start` (or, with `npm`, the README's `npm start`, without the probe: its
 * figures are RSS only); resolves once both surfaces answer, with the time that took.
 */
async function startHearth(
  env: Record<string, string>,
  flags = NODE_FLAGS,
  launcher: "hearth" | "npm" = "hearth",
): Promise<{ running: Running; seconds: number; readyAt: number }> {
  const apiPort = await freePort();
  const httpPort = await freePort();
  const started = performance.now();
  const [command, args] =
    launcher === "npm"
      ? ["npm", ["start", "--silent"]]
      : [
          process.execPath,
          [
            ...flags,
            "--expose-gc",
            "--import",
            path.join(ROOT, "bench/footprint-probe.mjs"),
            path.join(ROOT, "bin/hearth.js"),
            "start",
          ],
        ];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      API_PORT: String(apiPort),
      HTTP_PORT: String(httpPort),
      HTTP_AUTH: "false",
      LOG_LEVEL: "warn",
      AUTOMATIONS_DIR: path.join(ROOT, "automations"),
      MQTT_HOST: MQTT_URL.hostname,
      MQTT_PORT: MQTT_URL.port || "1883",
      RATE_LIMIT_PER_MINUTE: "10000000",
      AUTH_RATE_LIMIT_PER_MINUTE: "10000000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const reports: ((report: MemoryReport) => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (line.startsWith("FOOTPRINT ")) reports.shift()?.(JSON.parse(line.slice("FOOTPRINT ".length)) as MemoryReport);
      else if (line) output += `${line}\n`;
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, treeRss(child.pid as number));
    } catch {
      // Not started yet, or gone.
    }
  }, 100);
  void exited.then(() => clearInterval(sampler));
  for (;;) {
    if (
      (await answers(`http://127.0.0.1:${httpPort}/readyz`)) &&
      (await answers(`http://127.0.0.1:${apiPort}/api/v1/health`))
    )
      break;
    if (child.exitCode !== null) throw new Error(`hearth start exited with ${child.exitCode}:\n${output}`);
    if (performance.now() - started > 180_000) throw new Error(`hearth start did not answer within 180 s:\n${output}`);
    await sleep(20);
  }
  const seconds = (performance.now() - started) / 1000;
  const running: Running = {
    child,
    apiPort,
    httpPort,
    output: () => output,
    peakRss: () => peak,
    gcReport: () =>
      new Promise((resolve) => {
        reports.push(resolve);
        child.kill("SIGUSR2");
      }),
    stop: async () => {
      child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0) throw new Error(`hearth stopped with exit code ${code}:\n${output}`);
    },
  };
  return { running, seconds, readyAt: performance.now() };
}

/** Mixed load: four API workers (create, list, search, edit, history) and the engine (MQTT, webhooks, state). */
async function mixedLoad(running: Running, seconds: number): Promise<{ requests: number; messages: number }> {
  const api = `http://127.0.0.1:${running.apiPort}/api/v1`;
  const engine = `http://127.0.0.1:${running.httpPort}`;
  const email = `bench-${Date.now()}@example.test`;
  const { accessToken } = (await call("POST", `${api}/auth/register`, undefined, {
    email,
    password: "correct horse battery",
    name: "Bench",
  })) as {
    accessToken: string;
  };
  const token = accessToken;
  const { id: hid } = (await call("POST", `${api}/households`, token, { name: "Bench" })) as { id: string };
  const { id: freezerId } = (await call("POST", `${api}/households/${hid}/freezers`, token, { name: "Chest" })) as {
    id: string;
  };
  const { id: compartmentId } = (await call(
    "POST",
    `${api}/households/${hid}/freezers/${freezerId}/compartments`,
    token,
    {
      name: "Basket",
    },
  )) as { id: string };

  const client = await mqtt.connectAsync(MQTT_URL.toString());
  const deadline = performance.now() + seconds * 1000;
  let requests = 0;
  let messages = 0;
  const foods = ["peas", "raspberries", "lasagne", "bread", "stock", "dumplings", "pesto", "ice cream"];
  const apiWorker = async (worker: number) => {
    let round = 0;
    while (performance.now() < deadline) {
      round += 1;
      const name = `${foods[(worker + round) % foods.length]} ${worker}-${round}`;
      const item = (await call("POST", `${api}/households/${hid}/items`, token, {
        name,
        quantity: 2,
        freezerId,
        compartmentId,
      })) as {
        id: string;
      };
      await call("GET", `${api}/households/${hid}/items?limit=20`, token);
      await call(
        "GET",
        `${api}/households/${hid}/items?search=${encodeURIComponent(foods[round % foods.length] as string)}`,
        token,
      );
      await call("PATCH", `${api}/households/${hid}/items/${item.id}`, token, { quantity: 1 });
      await call("GET", `${api}/households/${hid}/items/${item.id}/history`, token);
      // Keeps the household at a steady size: what grows then is the process, not the data.
      if (round % 2 === 0) await call("DELETE", `${api}/households/${hid}/items/${item.id}`, token);
      requests += round % 2 === 0 ? 6 : 5;
    }
  };
  const engineWorker = async () => {
    let round = 0;
    while (performance.now() < deadline) {
      round += 1;
      await client.publishAsync(
        "zigbee2mqtt/hallway_motion",
        JSON.stringify({ occupancy: round % 2 === 0, battery: 90 }),
      );
      await client.publishAsync("zigbee2mqtt/front_door", JSON.stringify({ contact: round % 3 !== 0 }));
      await client.publishAsync(
        `zigbee2mqtt/sensor_${round % 20}`,
        JSON.stringify({ temperature: 20 + (round % 5), humidity: 50 }),
      );
      messages += 3;
      await call("POST", `${engine}/webhook/away-mode`, undefined, { away: round % 2 === 0 });
      await call("PUT", `${engine}/api/state/bench.round`, undefined, { value: round });
      await call("GET", `${engine}/api/state`);
      requests += 3;
    }
  };
  await Promise.all([apiWorker(1), apiWorker(2), apiWorker(3), apiWorker(4), engineWorker()]);
  await client.endAsync();
  return { requests, messages };
}

interface Figures {
  firstStart: number;
  secondStart: number;
  /** Peak RSS of the process tree during the first start (empty database) and its type check. */
  firstPeak: number;
  /** RSS once the first start and its type check are done. */
  firstIdle: number;
  /** The same for the second start. */
  secondPeak: number;
  /** RSS of the process and its type-check child, `SETTLE_SECONDS` after the second start. */
  startup: number;
  /** Seconds from then until the start-up type check's process had exited. */
  typeCheckSeconds: number;
  idle: number;
  idleAfterGc: MemoryReport;
  afterLoad: number;
  afterLoadGc: MemoryReport;
  load: { requests: number; messages: number };
  /** Idle RSS of one more start with the small-board V8 flags. */
  idleSmallBoard: number;
}

/** Where a first start (in an empty DATA_DIR) keeps its type check once it is done. */
function keptTypeCheck(env: Record<string, string>): string {
  return path.join(env.DATA_DIR as string, TYPE_CHECK_FILE);
}

async function measure(env: Record<string, string>): Promise<Figures> {
  const first = await startHearth(env);
  await typeCheckDone(first.running.child.pid as number, keptTypeCheck(env));
  await sleep(SETTLE_SECONDS * 1000);
  await idleSince(first.readyAt);
  const firstIdle = treeRss(first.running.child.pid as number);
  const firstPeak = first.running.peakRss();
  await first.running.stop();
  const second = await startHearth(env);
  try {
    await sleep(SETTLE_SECONDS * 1000);
    const pid = second.running.child.pid as number;
    const startup = treeRss(pid);
    const typeCheckSeconds = await typeCheckDone(pid);
    const secondPeak = second.running.peakRss();
    await sleep(SETTLE_SECONDS * 1000);
    await idleSince(second.readyAt);
    const idle = treeRss(pid);
    const idleAfterGc = await second.running.gcReport();
    const load = await mixedLoad(second.running, LOAD_SECONDS);
    const afterLoad = treeRss(pid);
    await sleep(SETTLE_SECONDS * 1000);
    const afterLoadGc = await second.running.gcReport();
    await second.running.stop();
    const small = await startHearth(env, SMALL_BOARD_FLAGS);
    await sleep(SETTLE_SECONDS * 1000);
    await typeCheckDone(small.running.child.pid as number);
    await sleep(SETTLE_SECONDS * 1000);
    await idleSince(small.readyAt);
    const idleSmallBoard = treeRss(small.running.child.pid as number);
    await small.running.stop();
    return {
      firstStart: first.seconds,
      secondStart: second.seconds,
      firstPeak,
      firstIdle,
      secondPeak,
      startup,
      typeCheckSeconds,
      idle,
      idleAfterGc,
      afterLoad,
      afterLoadGc,
      load,
      idleSmallBoard,
    };
  } catch (error) {
    if (second.running.child.exitCode === null) second.running.child.kill("SIGKILL");
    throw error;
  }
}

/**
 * A first start the way the README starts Hearth, `npm start` (which runs dist/ when it is
 * current): its time, the peak and idle RSS of npm, Hearth and the type check's process, and
 * npm's own share of that.
 */
async function measureNpmStart(
  env: Record<string, string>,
): Promise<{ seconds: number; peak: number; idle: number; npm: number }> {
  const first = await startHearth(env, [], "npm");
  try {
    const pid = first.running.child.pid as number;
    await typeCheckDone(pid, keptTypeCheck(env));
    await sleep(SETTLE_SECONDS * 1000);
    await idleSince(first.readyAt);
    const figures = { seconds: first.seconds, peak: first.running.peakRss(), idle: treeRss(pid), npm: rssOf(pid) };
    await first.running.stop();
    return figures;
  } catch (error) {
    if (first.running.child.exitCode === null) first.running.child.kill("SIGKILL");
    throw error;
  }
}

/** A bare Node process: its start time and idle RSS are the floor every figure stands on. */
async function baseline(): Promise<{ seconds: number; rss: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", "console.log('up'); setInterval(() => {}, 1 << 30)"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise((resolve) => child.stdout?.once("data", resolve));
  const seconds = (performance.now() - started) / 1000;
  await sleep(SETTLE_SECONDS * 1000);
  const rss = rssOf(child.pid as number);
  child.kill();
  return { seconds, rss };
}

async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T | string> {
  const name = `hearth_footprint_${Date.now()}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await admin.connect();
  } catch (error) {
    return `skipped: ${DATABASE_URL} does not answer (${(error as Error).message})`;
  }
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const secs = (value: number) => `${value.toFixed(2)} s`;

async function main(): Promise<void> {
  if (process.platform !== "linux") throw new Error("bench:footprint reads /proc: Linux only");
  if (!existsSync(path.join(ROOT, "dist/composition/main.js")))
    throw new Error("dist/ is not built: run `npm run build` first");
  console.log(
    `Footprint of \`hearth start\` (dist/, the example automations in automations/), Node ${process.version}, flags "${NODE_FLAGS.join(" ") || "Node's defaults"}"; load ${LOAD_SECONDS} s, settle ${SETTLE_SECONDS} s`,
  );
  const node = await baseline();
  const scratch = await mkdtemp(path.join(tmpdir(), "hearth-footprint-"));
  try {
    const postgres = await withPostgres((url) =>
      measure({ DATABASE_URL: url, DATA_DIR: path.join(scratch, "postgres") }),
    );
    const pglite = await measure({ DATA_DIR: path.join(scratch, "pglite") });
    const npmPostgres = await withPostgres((url) =>
      measureNpmStart({ DATABASE_URL: url, DATA_DIR: path.join(scratch, "postgres-npm") }),
    );
    const npmPglite = await measureNpmStart({ DATA_DIR: path.join(scratch, "pglite-npm") });
    const column = (figures: Figures | string, pick: (f: Figures) => string) =>
      typeof figures === "string" ? "—" : pick(figures);
    const rows: [string, (f: Figures) => string, string][] = [
      ["first start (empty database)", (f) => secs(f.firstStart), "PGlite < 10 s"],
      ["second start", (f) => secs(f.secondStart), "< 2 s"],
      [
        "peak RSS during the first start, with its type check's process",
        (f) => mb(f.firstPeak),
        "PostgreSQL < 250 MB, PGlite < 350 MB",
      ],
      ["idle RSS after the first start (its type check done)", (f) => mb(f.firstIdle), "PGlite < 250 MB"],
      [
        "peak RSS during the second start (its type check kept from the first)",
        (f) => mb(f.secondPeak),
        "PostgreSQL < 250 MB, PGlite < 350 MB",
      ],
      [
        `RSS ${SETTLE_SECONDS} s after start, with the start-up type check's process`,
        (f) => `${mb(f.startup)} (check done ${f.typeCheckSeconds.toFixed(0)} s later)`,
        "",
      ],
      ["idle RSS after start", (f) => mb(f.idle), "PostgreSQL < 150 MB, PGlite < 250 MB"],
      ["idle RSS after start, after GC", (f) => mb(f.idleAfterGc.rss), ""],
      [
        "  JS heap used / external (incl. WASM) after GC",
        (f) => `${mb(f.idleAfterGc.heapUsed)} / ${mb(f.idleAfterGc.external)}`,
        "",
      ],
      [`RSS right after ${LOAD_SECONDS} s of mixed load`, (f) => mb(f.afterLoad), ""],
      ["RSS after the load, after GC", (f) => mb(f.afterLoadGc.rss), ""],
      [
        "  JS heap used / external after the load, after GC",
        (f) => `${mb(f.afterLoadGc.heapUsed)} / ${mb(f.afterLoadGc.external)}`,
        "",
      ],
      [
        "after load (GC) vs idle (GC)",
        (f) => `${(((f.afterLoadGc.rss - f.idleAfterGc.rss) / f.idleAfterGc.rss) * 100).toFixed(1)} %`,
        "within 10 %",
      ],
      ["load: HTTP requests / MQTT messages", (f) => `${f.load.requests} / ${f.load.messages}`, ""],
      ["idle RSS vs a bare Node process", (f) => `×${(f.idle / node.rss).toFixed(1)}`, ""],
      [`idle RSS after start with ${SMALL_BOARD_FLAGS.join(" ")}`, (f) => mb(f.idleSmallBoard), ""],
    ];
    console.log("");
    console.log("| what | PostgreSQL | PGlite | target |");
    console.log("|---|---|---|---|");
    for (const [label, pick, target] of rows)
      console.log(`| ${label} | ${column(postgres, pick)} | ${column(pglite, pick)} | ${target} |`);
    console.log(`| bare Node process (baseline): start / idle RSS | ${secs(node.seconds)} / ${mb(node.rss)} | | |`);
    type NpmFigures = Awaited<ReturnType<typeof measureNpmStart>>;
    const npmColumn = (figures: NpmFigures | string, pick: (f: NpmFigures) => string) =>
      typeof figures === "string" ? "—" : pick(figures);
    const npmRows: [string, (f: NpmFigures) => string, string][] = [
      ["first start (empty database)", (f) => secs(f.seconds), "PGlite < 10 s"],
      ["peak RSS during the first start (npm, Hearth, type check)", (f) => mb(f.peak), ""],
      ["idle RSS after the first start", (f) => `${mb(f.idle)} (npm itself ${mb(f.npm)})`, ""],
    ];
    console.log("");
    console.log("The README's `npm start` (a first start each):");
    console.log("");
    console.log("| what | PostgreSQL | PGlite | target |");
    console.log("|---|---|---|---|");
    for (const [label, pick, target] of npmRows)
      console.log(`| ${label} | ${npmColumn(npmPostgres, pick)} | ${npmColumn(npmPglite, pick)} | ${target} |`);
    if (typeof postgres === "string") console.log(`\nPostgreSQL ${postgres}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

runOnRequestedNodes("bench/footprint.ts");
await main();
