/**
 * Instructions per request of the inventory API's process (`npm run bench:instructions`).
 *
 * On a shared two-core machine the app's CPU time per request moves by ±25 % between identical
 * runs, which hides any change smaller than that. Instructions do not move with the machine's
 * load: this bench runs the app (bench/inventory-app.mjs, from dist/ as `npm start` runs it)
 * under valgrind's callgrind with instrumentation off, warms it up with BENCH_WARMUP requests
 * per scenario, then counts the instructions of BENCH_REQUESTS requests (autocannon, 16
 * connections, keep-alive) and divides. Repeated runs agreed within 1–4 % on the main thread.
 *
 * Two figures per scenario: the main thread (the event loop: express, the use cases, knex,
 * node-postgres, and the scavenges V8 runs there) and all threads (adding V8's background
 * compilers and its concurrent marking and sweeping). The baseline in the same run is a plain
 * node:http server (bench/http-floor-app.mjs) answering a small JSON body under the same load.
 *
 * BENCH_DATABASES (default `pglite,postgres`): the embedded database, Hearth's default, whose
 * WebAssembly runs inside the app process and so is counted with it, and PostgreSQL through a
 * server URL whose user may create databases (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres). Scratch databases are removed at the end.
 * BENCH_APPS (default `api,hearth`): the inventory API alone, as `bench:inventory` runs it, and
 * the whole of `hearth start` (bench/hearth-app.mjs) with default settings and the example
 * automations, where a write's events also go to the engine and MQTT; the count of a scenario
 * ends once the app has delivered the events its requests wrote, so that work is in it.
 * BENCH_SCENARIOS picks scenarios (default all of post,patch,get,list,notfound). Needs valgrind
 * (Debian's package). Under valgrind the app runs about 50 times slower: a run of all scenarios
 * takes about four minutes per database and app. `npm run bench:instructions -- --node 22,24` runs it on
 * those Node versions (fetched with npx), the app included.
 */
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import knexFactory from "knex";
import { openDatabase } from "../src/adapters/persistence/database.js";
import { migrateToLatest } from "../src/adapters/persistence/migrator.js";
import { compiledRuntimeStaleness } from "../scripts/dist-freshness.mjs";
import { benchAppEnvironment } from "./inventory-households.js";
import { runOnRequestedNodes } from "./other-nodes.js";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const CONNECTIONS = 16;
/** Seconds of wall time with no requests over which an app's timed work is counted. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);

interface Counted {
  requests: number;
  mainKIr: number;
  allKIr: number;
  /**
   * The main thread's figure less what the app does on its timers anyway (hearth start polls
   * the outbox every 500 ms): under valgrind a request takes about 50 times as long, so timed
   * work weighs that much more per request than at full speed.
   */
  mainLessIdleKIr: number;
}

/** Instructions per second of wall time that an app's main thread spends with no requests. */
interface IdleRate {
  main: number;
}

interface Request {
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: string;
}

/** A child under callgrind, instrumentation off until `count` asks for it. */
class CountedProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly outDir: string,
    readonly port: number,
  ) {}

  static async start(script: string, env: Record<string, string>): Promise<CountedProcess> {
    const outDir = await mkdtemp(path.join(tmpdir(), "hearth-callgrind-"));
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
      // fork runs `execPath ...execArgv script`: valgrind with node as its program.
      execPath: "valgrind",
      execArgv: [
        "-q",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--separate-threads=yes",
        `--callgrind-out-file=${path.join(outDir, "out.%p")}`,
        process.execPath,
      ],
      env: { ...process.env, ...env },
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`${script} under valgrind exited with ${code}`)));
      child.on("message", (message: { port?: number }) => {
        if (message.port !== undefined) resolve(message.port);
      });
    });
    return new CountedProcess(child, outDir, port);
  }

  /** Waits until the app has done the work the requests so far left behind (bench/app-usage.mjs). */
  private settle(): Promise<void> {
    return new Promise((resolve) => {
      const listener = (message: { settled?: boolean }) => {
        if (message.settled !== true) return;
        this.child.off("message", listener);
        resolve();
      };
      this.child.on("message", listener);
      this.child.send("settle");
    });
  }

  /** The instructions the app spends per second of wall time with no requests. */
  async idleRate(seconds: number): Promise<IdleRate> {
    const counted = await this.count("idle", async () => {
      await sleep(seconds * 1000);
    });
    return { main: counted.main / counted.seconds };
  }

  /**
   * Runs `load` with instrumentation on and returns the instructions it took, per thread: the
   * work its requests left behind (in `hearth start`, delivering their events) included, the
   * warm-up's excluded.
   */
  async count(name: string, load: () => Promise<void>): Promise<{ main: number; all: number; seconds: number }> {
    const pid = String(this.child.pid);
    const control = (...args: string[]) => execFileSync("callgrind_control", [...args, pid], { stdio: "ignore" });
    await this.settle();
    control("--zero");
    control("--instr=on");
    const started = performance.now();
    await load();
    await this.settle();
    const seconds = (performance.now() - started) / 1000;
    control("--instr=off");
    control(`--dump=${name}`);
    let main = 0;
    let all = 0;
    for (const file of await readdir(this.outDir)) {
      const text = await readFile(path.join(this.outDir, file), "utf8");
      if (!text.includes(`Trigger: dump ${name}\n`)) continue;
      const total = Number(/^totals: (\d+)/m.exec(text)?.[1] ?? 0);
      all += total;
      // Thread 1 is the one that runs the event loop.
      if (file.endsWith("-01")) main = total;
    }
    return { main, all, seconds };
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.disconnect();
    await exited;
    await rm(this.outDir, { recursive: true, force: true });
  }
}

async function call(base: string, method: string, url: string, body?: unknown, token?: string): Promise<unknown> {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function load(port: number, next: () => Request, token: string, amount: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    amount,
    // Under valgrind a request takes milliseconds, and a background compile can stall a few.
    timeout: 120,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          ...next(),
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        }),
      },
    ],
  });
  return { requests: result.requests.total, failed: result.errors + result.timeouts, non2xx: result.non2xx };
}

async function measure(
  target: CountedProcess,
  name: string,
  next: () => Request,
  token: string,
  expectOk: boolean,
  idle: IdleRate,
): Promise<Counted> {
  await load(target.port, next, token, WARMUP);
  let outcome = { requests: 0, failed: 0, non2xx: 0 };
  const counted = await target.count(name, async () => {
    outcome = await load(target.port, next, token, REQUESTS);
  });
  // The 404 scenario answers nothing but 404: what must not happen there is a lost request.
  const failed = outcome.failed + (expectOk ? outcome.non2xx : 0);
  if (failed > 0) throw new Error(`${name}: ${failed} of ${outcome.requests} requests failed`);
  return {
    requests: outcome.requests,
    mainKIr: counted.main / outcome.requests / 1000,
    allKIr: counted.all / outcome.requests / 1000,
    mainLessIdleKIr: (counted.main - idle.main * counted.seconds) / outcome.requests / 1000,
  };
}

/** The scenarios against one started app, each as a table row. */
async function measureApp(app: CountedProcess, scenarios: Set<string>, database: string): Promise<[string, Counted][]> {
  const rows: [string, Counted][] = [];
  const base = `http://127.0.0.1:${app.port}`;
  const account = (await call(base, "POST", "/auth/register", {
    email: "bench@example.com",
    password: "correct horse battery staple",
    name: "Bench",
  })) as { accessToken: string };
  const token = account.accessToken;
  const household = (await call(base, "POST", "/households", { name: "Bench" }, token)) as { id: string };
  const items = `/households/${household.id}/items`;
  const freezer = (await call(base, "POST", `/households/${household.id}/freezers`, { name: "F" }, token)) as {
    id: string;
  };
  const compartment = (await call(
    base,
    "POST",
    `/households/${household.id}/freezers/${freezer.id}/compartments`,
    { name: "C" },
    token,
  )) as { id: string };
  const placement = { freezerId: freezer.id, compartmentId: compartment.id };
  const itemIds: string[] = [];
  for (let i = 0; i < 100; i++) {
    const item = (await call(base, "POST", items, { name: `Item ${i}`, quantity: 1, ...placement }, token)) as {
      id: string;
    };
    itemIds.push(item.id);
  }
  // After the setup's requests: what the app does on its timers, to take out of each scenario.
  const idle = await app.idleRate(IDLE_SECONDS);
  let n = 0;
  const requests: Record<string, { next: () => Request; ok: boolean; label: string }> = {
    post: {
      label: "POST an item",
      ok: true,
      next: () => ({
        method: "POST",
        path: `/api/v1${items}`,
        body: JSON.stringify({ name: `Peas ${n++}`, quantity: 2, ...placement }),
      }),
    },
    patch: {
      label: "PATCH an item's quantity",
      ok: true,
      next: () => ({
        method: "PATCH",
        path: `/api/v1${items}/${itemIds[n++ % itemIds.length]}`,
        body: JSON.stringify({ quantity: (n % 9) + 1 }),
      }),
    },
    get: {
      label: "GET one item",
      ok: true,
      next: () => ({ method: "GET", path: `/api/v1${items}/${itemIds[n++ % itemIds.length]}` }),
    },
    list: { label: "GET the item list", ok: true, next: () => ({ method: "GET", path: `/api/v1${items}` }) },
    notfound: { label: "404: unknown path", ok: false, next: () => ({ method: "GET", path: "/api/v1/nothing" }) },
  };
  for (const [name, scenario] of Object.entries(requests)) {
    if (!scenarios.has(name)) continue;
    rows.push([
      `${database}: ${scenario.label}`,
      // The dump's name goes through callgrind_control's command line: no spaces or brackets.
      await measure(
        app,
        `${database}-${name}`.replace(/[^A-Za-z0-9-]+/g, "-"),
        scenario.next,
        token,
        scenario.ok,
        idle,
      ),
    ]);
    process.stderr.write(`  ${database}: ${scenario.label}: done\n`);
  }
  return rows;
}

/**
 * The app processes measured: the inventory API alone (bench/inventory-app.mjs, as
 * `bench:inventory` runs it) and the whole of `hearth start` (bench/hearth-app.mjs: the engine
 * with the example automations, the inventory events delivered to it and to MQTT).
 */
const APPS = {
  api: { script: "inventory-app.mjs", label: "", pgliteDirVariable: "BENCH_PGLITE_DIR" },
  hearth: { script: "hearth-app.mjs", label: " (hearth start)", pgliteDirVariable: "DATA_DIR" },
} as const;
type AppName = keyof typeof APPS;

/** Each app on a database of its own, opened by `open` (migrated), then released. */
async function measureApps(
  apps: AppName[],
  scenarios: Set<string>,
  database: string,
  open: () => Promise<{ env: (app: AppName) => Record<string, string>; release(): Promise<void> }>,
): Promise<[string, Counted][]> {
  const rows: [string, Counted][] = [];
  for (const name of apps) {
    const opened = await open();
    try {
      const app = await CountedProcess.start(APPS[name].script, opened.env(name));
      try {
        rows.push(...(await measureApp(app, scenarios, `${database}${APPS[name].label}`)));
      } finally {
        await app.stop();
      }
    } finally {
      await opened.release();
    }
  }
  return rows;
}

/** Hearth's default database: a migrated PGlite data directory the app opens itself. */
function measurePglite(apps: AppName[], scenarios: Set<string>): Promise<[string, Counted][]> {
  return measureApps(apps, scenarios, "PGlite", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "hearth-bench-instructions-"));
    const database = await openDatabase({ dataDir: directory });
    await migrateToLatest(database.knex);
    await database.close();
    return {
      env: (app) => ({ ...benchAppEnvironment("", 10), [APPS[app].pgliteDirVariable]: directory }),
      release: () => rm(directory, { recursive: true, force: true }),
    };
  });
}

/** PostgreSQL: a scratch database on BENCH_DATABASE_URL's server, dropped at the end. */
function measurePostgres(apps: AppName[], scenarios: Set<string>): Promise<[string, Counted][]> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  return measureApps(apps, scenarios, "PostgreSQL", async () => {
    const databaseName = `hearth_bench_instructions_${process.pid}`;
    const admin = knexFactory({ client: "pg", connection: adminUrl });
    await admin.raw(`CREATE DATABASE ${databaseName}`);
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${databaseName}`;
    const release = async () => {
      await admin.raw(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.destroy();
    };
    try {
      const database = await openDatabase({ databaseUrl: databaseUrl.href, dataDir: ":memory:", poolMax: 2 });
      await migrateToLatest(database.knex);
      await database.close();
    } catch (error) {
      await release();
      throw error;
    }
    // The app's default pool size (openDatabase), as bench:inventory runs it. hearth start keeps
    // its DATA_DIR (the engine's state, its token) in a folder of its own.
    const dataDir = await mkdtemp(path.join(tmpdir(), "hearth-bench-instructions-"));
    return {
      env: () => ({ ...benchAppEnvironment(databaseUrl.href, 10), DATA_DIR: dataDir }),
      async release() {
        await release();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, "..");
  const staleness = compiledRuntimeStaleness(root);
  if (staleness !== null) {
    throw new Error(
      `dist/ is ${staleness === "missing" ? "not built" : "older than src/"}: run \`npm run build\` first.`,
    );
  }
  try {
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("valgrind is not installed (Debian: apt-get install -y valgrind)");
  }
  const list = (value: string) => new Set(value.split(",").map((name) => name.trim()));
  const scenarios = list(process.env.BENCH_SCENARIOS ?? "post,patch,get,list,notfound");
  const databases = list(process.env.BENCH_DATABASES ?? "pglite,postgres");
  const apps = [...list(process.env.BENCH_APPS ?? "api,hearth")].filter((name): name is AppName => name in APPS);

  const rows: [string, Counted][] = [];
  const floor = await CountedProcess.start("http-floor-app.mjs", {});
  try {
    const ok = (): Request => ({ method: "GET", path: "/" });
    const idle = await floor.idleRate(IDLE_SECONDS);
    rows.push(["baseline: node:http, small JSON", await measure(floor, "floor", ok, "", true, idle)]);
  } finally {
    await floor.stop();
  }
  if (databases.has("pglite")) rows.push(...(await measurePglite(apps, scenarios)));
  if (databases.has("postgres")) rows.push(...(await measurePostgres(apps, scenarios)));

  const baseline = rows[0]?.[1];
  console.log(
    `Instructions per request (callgrind), ${REQUESTS} requests after ${WARMUP} of warm-up, ${CONNECTIONS} connections, Node ${process.version}`,
  );
  console.log(
    "| scenario | main thread kIr/req | all threads kIr/req | main thread / baseline | main thread less timed work kIr/req | requests |",
  );
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [label, counted] of rows) {
    const ratio = baseline ? (counted.mainKIr / baseline.mainKIr).toFixed(1) : "";
    console.log(
      `| ${label} | ${counted.mainKIr.toFixed(0)} | ${counted.allKIr.toFixed(0)} | ${ratio}× | ${counted.mainLessIdleKIr.toFixed(0)} | ${counted.requests} |`,
    );
  }
}

runOnRequestedNodes("bench/inventory-instructions.ts");
await main();
