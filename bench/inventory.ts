/**
 * Inventory API benchmark (`npm run bench:inventory`).
 *
 * Seeds one household with 100 000 items in a scratch PostgreSQL database, starts the real
 * app (buildInventoryApi, from the compiled dist/ as `npm start` runs it: run `npm run build`
 * first; bench/inventory-app.mjs) in child processes so the load generator does not share their event
 * loop, one as configured by default and one with the item-list cache off, drives them over
 * loopback HTTP with autocannon at 32 connections, then replays the same list/search SQL
 * straight through node-postgres at the same concurrency and pool size, and prints req/s,
 * p50 and p99 per scenario and the API/raw ratios. The scratch database is dropped at the end.
 * Both scenarios also measure item creation (POST) at 16 connections, and report the app
 * process's RSS.
 *
 * The multi-household scenario (bench/inventory-households.ts) seeds BENCH_HOUSEHOLDS (10 000)
 * households of BENCH_ITEMS_PER_HOUSEHOLD (100) items and two members each, and spreads
 * requests at random over households and members at 32 connections, beside the same SQL.
 * BENCH_SCENARIOS picks which groups run (default all of single,multi,writes,pglite,hearth:
 * singleHousehold, multiHousehold, writesIntoOneHousehold, embedded and wholeHearth below);
 * smaller BENCH_HOUSEHOLDS and BENCH_ITEMS make a quick run.
 *
 * BENCH_DATABASE_URL: a PostgreSQL server URL whose user may create databases
 * (default postgres://postgres@127.0.0.1:5432/postgres). BENCH_DURATION: seconds per
 * scenario (default 5). BENCH_ITEMS: item count (default 100000). For query-plan work:
 * BENCH_KEEP_DATABASE=1 keeps the scratch database, BENCH_SEED_ONLY=1 stops after seeding.
 * BENCH_APP_NODE_FLAGS: Node flags for the app processes only, instead of those `npm start`
 * passes (none: the app sizes V8's heap itself, as `hearth start` does; a
 * `--max-semi-space-size` here leaves the young generation to V8, as it would for an owner).
 * BENCH_PGLITE_TURN=both: the `pglite` group runs an app without the event loop's turn before
 * each PGlite statement beside the usual one ("off" runs only that one). Every row also gives the
 * latency inside the app (bench/app-usage.mjs): the client's figure minus it is time a request
 * waited unread in its socket.
 * `npm run bench:inventory -- --node 22,24` runs the whole bench, apps included, on those Node
 * versions one after the other (bench/other-nodes.ts).
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createId } from "@paralleldrive/cuid2";
import autocannon from "autocannon";
import knexFactory from "knex";
import pg from "pg";
import { type Database, openDatabase } from "../src/adapters/persistence/database.js";
import {
  buildItemListSql,
  buildItemTotalSql,
  KnexItemRepository,
} from "../src/adapters/persistence/knex-item-repository.js";
import { down as dropCounters } from "../migrations/20261125130000_household_item_counters.js";
import { migrateToLatest } from "../src/adapters/persistence/migrator.js";
import type { FreezerItem } from "../src/domain/inventory/freezer-item.js";
import type { ItemListQuery } from "../src/ports/item-repository.js";
import {
  BENCH_JWT_SECRET,
  benchAppEnvironment,
  createScenario,
  HOUSEHOLDS,
  hearthStartMallocEnvironment,
  type HouseholdScenario,
  householdScenarios,
  ids,
  ITEMS_PER_HOUSEHOLD,
  Layout,
  pgRaw,
  type RawDb,
  seedHouseholds,
  tokensFor,
} from "./inventory-households.js";
import { compiledRuntimeStaleness } from "../scripts/dist-freshness.mjs";
import { runOnRequestedNodes } from "./other-nodes.js";
import { typeCheckDone } from "./process-tree.js";

const CONNECTIONS = 32;
/** The app's default pool size (openDatabase); the raw runner gets the same. */
const POOL_SIZE = 10;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ITEM_COUNT = Number(process.env.BENCH_ITEMS ?? 100_000);
const WARMUP_SECONDS = 1;
/** The Node flags the README's `npm start` runs the app with (those before its script), read from package.json. */
const NPM_START_NODE_FLAGS =
  (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: { start: string } }
  ).scripts.start
    .match(/\bnode((?:\s+--\S+)*)\s/)?.[1]
    ?.trim() ?? "";
const SCENARIOS = new Set(
  (process.env.BENCH_SCENARIOS ?? "single,multi,writes,pglite,hearth").split(",").map((name) => name.trim()),
);
/** Items of the household the PGlite run seeds (the issue's 10 000). */
const PGLITE_ITEMS = Number(process.env.BENCH_PGLITE_ITEMS ?? 10_000);

// ---------------------------------------------------------------- food vocabulary

const FOODS = [
  "Chicken breast",
  "Chicken thighs",
  "Chicken wings",
  "Chicken nuggets",
  "Chicken curry",
  "Beef mince",
  "Beef stew",
  "Beef burgers",
  "Steak",
  "Meatballs",
  "Pork chops",
  "Pork sausages",
  "Pulled pork",
  "Bacon",
  "Lamb shank",
  "Lamb mince",
  "Turkey breast",
  "Duck legs",
  "Salmon fillet",
  "Cod fillet",
  "Haddock",
  "Prawns",
  "Fish fingers",
  "Tuna steak",
  "Mackerel",
  "Peas",
  "Sweetcorn",
  "Green beans",
  "Broccoli",
  "Spinach",
  "Cauliflower",
  "Carrots",
  "Brussels sprouts",
  "Mixed vegetables",
  "Edamame",
  "Butternut squash",
  "Chips",
  "Potato wedges",
  "Hash browns",
  "Roast potatoes",
  "Rice",
  "Bread rolls",
  "Sourdough loaf",
  "Bagels",
  "Croissants",
  "Pizza base",
  "Naan bread",
  "Tortillas",
  "Lasagne",
  "Bolognese sauce",
  "Chilli con carne",
  "Vegetable soup",
  "Tomato soup",
  "Lentil dal",
  "Shepherd's pie",
  "Fish pie",
  "Dumplings",
  "Spring rolls",
  "Ice cream",
  "Sorbet",
  "Frozen yoghurt",
  "Raspberries",
  "Blueberries",
  "Strawberries",
  "Mango chunks",
  "Cherries",
  "Banana slices",
  "Pastry",
  "Puff pastry",
  "Waffles",
  "Pancakes",
  "Cookie dough",
  "Cheesecake",
  "Apple crumble",
  "Crème fraîche",
  "Butter",
  "Grated cheese",
  "Stock cubes",
  "Pesto",
  "Garlic bread",
  "Herbs",
];
const PREFIXES = [
  "",
  "",
  "",
  "Homemade",
  "Organic",
  "Leftover",
  "Smoked",
  "Spicy",
  "Diced",
  "Sliced",
  "Roast",
  "Free-range",
];
const RARE_WORD = "Kohlrabi";
const RARE_EVERY = 5_000;
const COMMON_WORD = "chicken";
/** Part of the rare word that begins none of the seeded names' words. */
const INFIX_WORD = "rabi";

function itemName(index: number): string {
  if (index % RARE_EVERY === 1) return `${RARE_WORD} gratin`;
  const food = FOODS[(index * 7919) % FOODS.length]!;
  const prefix = PREFIXES[(index * 104729) % PREFIXES.length];
  return prefix ? `${prefix} ${food.charAt(0).toLowerCase()}${food.slice(1)}` : food;
}

// ---------------------------------------------------------------- parent helpers

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  /** The app process's CPU time (user + system) per request of the measured run, in µs. */
  appCpuUs?: number;
  /**
   * The same requests timed inside the app (bench/app-usage.mjs), from the moment it had read one
   * to its answer's end, in ms. The client's figure minus this is time a request waited unread.
   */
  served?: { p50: number; p99: number };
}

interface Scenario {
  name: string;
  api: Measured;
  /** The same requests against an app with ITEM_LIST_CACHE_SIZE=0: every list runs its SQL. */
  cold?: Measured;
  raw?: Measured;
  errors: number;
  /** The app process's RSS after the scenario, in MB. */
  rssMb?: number;
}

type AppUsage = NodeJS.MemoryUsage & {
  cpu: NodeJS.CpuUsage;
  young: number;
  peak: number;
  /** The requests served since the previous usage request (bench/app-usage.mjs). */
  served: { count: number; p50: number; p99: number };
};

/** An app process's memory (with its peak RSS since it started) and the CPU time it has used so far. */
function usageOf(child: ChildProcess): Promise<AppUsage> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      if (typeof message === "object" && message !== null && "rss" in message) {
        child.off("message", listener);
        resolve(message as AppUsage);
      }
    };
    child.on("message", listener);
    child.send("rss");
  });
}

/** An app process's peak RSS since it started (its start-up included), in MB, as a line of the report. */
async function peakLine(label: string, child: ChildProcess): Promise<string> {
  const { peak } = await usageOf(child);
  return `${label} peak RSS since its start (VmHWM): ${peak > 0 ? `${(peak / 1_048_576).toFixed(0)} MB` : "not on this system"}`;
}

/** Asks an app process for its resident set size. */
async function rssOf(child: ChildProcess): Promise<number> {
  const usage = await usageOf(child);
  // Where the RSS is: V8's heap, and external memory (PGlite's WebAssembly heap).
  if (process.env.BENCH_MEMORY_DETAIL === "1") {
    const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);
    process.stdout.write(
      `    app memory: RSS ${mb(usage.rss)} MB, heap ${mb(usage.heapUsed)} / ${mb(usage.heapTotal)} MB (young generation ${mb(usage.young)} MB), external ${mb(usage.external)} MB\n`,
    );
  }
  return usage.rss / 1_048_576;
}

/** autocannon where every request picks its own path, user (token) and body. */
async function runVaried(
  base: string,
  scenario: HouseholdScenario,
  tokenFor: (user: string) => string,
  app?: ChildProcess,
): Promise<Measured & { errors: number }> {
  // One request first, so a scenario that only produces errors stops the run with the reason.
  const probe = scenario.request();
  const answer = await fetch(`${base}/api/v1${probe.path}`, {
    method: probe.method,
    headers: { authorization: `Bearer ${tokenFor(probe.user)}`, "content-type": "application/json" },
    ...(probe.body ? { body: probe.body } : {}),
  });
  if (!answer.ok)
    throw new Error(`${scenario.name}: ${probe.method} ${probe.path} answered ${answer.status} ${await answer.text()}`);
  const run = (duration: number) =>
    autocannon({
      url: base,
      connections: scenario.connections,
      duration,
      requests: [
        {
          setupRequest: (request) => {
            const next = scenario.request();
            return {
              ...request,
              method: next.method,
              path: `/api/v1${next.path}`,
              headers: { authorization: `Bearer ${tokenFor(next.user)}`, "content-type": "application/json" },
              ...(next.body ? { body: next.body } : {}),
            };
          },
        },
      ],
    });
  await run(WARMUP_SECONDS);
  // Also starts the app's window of served requests, so the warm-up's are not in it.
  const before = app ? (await usageOf(app)).cpu : undefined;
  const result = await run(DURATION);
  const usage = app ? await usageOf(app) : undefined;
  const after = usage?.cpu;
  const answered = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    ...(before && after && answered > 0
      ? { appCpuUs: (after.user + after.system - before.user - before.system) / answered }
      : {}),
    ...(usage && usage.served.count > 0 ? { served: { p50: usage.served.p50, p99: usage.served.p99 } } : {}),
  };
}

/** A closed loop of `connections` workers each running `operation` back to back. */
async function runRawLoop(connections: number, operation: () => Promise<unknown>): Promise<Measured> {
  const loop = async (seconds: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          await operation();
          latencies.push(performance.now() - started);
        }
      }),
    );
    return latencies;
  };
  await loop(WARMUP_SECONDS);
  const latencies = (await loop(DURATION)).sort((a, b) => a - b);
  return { rps: latencies.length / DURATION, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

const figures = (m: Measured | undefined) =>
  m ? `${m.rps.toFixed(0)} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)}` : "– | – | –";
const ratio = (m: Measured | undefined, raw: Measured | undefined) => (m && raw ? (m.rps / raw.rps).toFixed(2) : "–");
const served = (m: Measured | undefined) =>
  m?.served ? `${m.served.p50.toFixed(1)} / ${m.served.p99.toFixed(1)}` : "–";

/** The fields the bench reads from API answers. */
type Answer = { id: string; accessToken: string } & Record<string, string>;

async function json(url: string, method: string, token: string | undefined, body?: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as Answer;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function runHttp(
  base: string,
  token: string,
  path: string,
  options: { method?: "GET" | "PATCH" | undefined; body?: (() => string) | undefined; seconds?: number } = {},
) {
  const run = (duration: number) =>
    autocannon({
      url: `${base}${path}`,
      connections: CONNECTIONS,
      duration,
      method: options.method ?? "GET",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(options.body ? { requests: [{ setupRequest: (request) => ({ ...request, body: options.body?.() }) }] } : {}),
    });
  await run(WARMUP_SECONDS);
  const result = await run(options.seconds ?? DURATION);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** A closed loop of CONNECTIONS workers replaying one list request (the queries the repository runs). */
async function runRaw(pool: pg.Pool, sql: { page: [string, unknown[]]; count?: [string, unknown[]] }) {
  const loop = async (seconds: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          await Promise.all([
            pool.query(sql.page[0], sql.page[1]),
            ...(sql.count ? [pool.query(sql.count[0], sql.count[1])] : []),
          ]);
          latencies.push(performance.now() - started);
        }
      }),
    );
    return latencies;
  };
  await loop(WARMUP_SECONDS);
  const latencies = (await loop(DURATION)).sort((a, b) => a - b);
  return { rps: latencies.length / DURATION, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  script: "inventory-app.mjs" | "hearth-app.mjs" = "inventory-app.mjs",
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: [
      ...(process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
      // The app's V8 flags alone (the load generator keeps its own): by default the one
      // `npm start` passes; BENCH_APP_NODE_FLAGS replaces it, to price a memory flag.
      ...(process.env.BENCH_APP_NODE_FLAGS ?? NPM_START_NODE_FLAGS).split(/\s+/).filter(Boolean),
    ],
    env: {
      ...process.env,
      ...benchAppEnvironment(databaseUrl, POOL_SIZE),
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => resolve({ child, port: (message as { port: number }).port }));
    child.once("exit", (code) => reject(new Error(`app process exited with ${code}`)));
  });
}

async function withScratchDatabase<T>(adminUrl: string, body: (url: string) => Promise<T>): Promise<T> {
  const keep = process.env.BENCH_KEEP_DATABASE === "1";
  const name = `hearth_bench_${createId()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await body(url.toString());
  } finally {
    if (keep) process.stdout.write(`Kept the benchmark database: ${url}\n`);
    else await dropDatabase(adminUrl, name);
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const dropper = new pg.Client({ connectionString: adminUrl });
  await dropper.connect();
  await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await dropper.end();
}

const toNativeSql = toNative;

function toNative(knexSql: {
  toSQL(): { toNative(): { sql: string; bindings: readonly unknown[] } };
}): [string, unknown[]] {
  const native = knexSql.toSQL().toNative();
  return [native.sql, [...native.bindings]];
}

// ---------------------------------------------------------------- parent: the benchmark

async function main(): Promise<void> {
  const staleness = compiledRuntimeStaleness(path.resolve(import.meta.dirname, ".."));
  if (staleness !== null) {
    throw new Error(
      `dist/ is ${staleness === "missing" ? "not built" : "older than src/"}: the app processes run the compiled output, as npm start does. Run \`npm run build\` first.`,
    );
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const startedAt = performance.now();
  const mallocArenaMax = process.env.MALLOC_ARENA_MAX ?? hearthStartMallocEnvironment().MALLOC_ARENA_MAX;
  process.stdout.write(
    `Node ${process.version}; the apps' malloc pools: ${mallocArenaMax === undefined ? "glibc's default" : `MALLOC_ARENA_MAX=${mallocArenaMax}`}${process.env.MALLOC_ARENA_MAX === undefined ? " (as hearth start sets it)" : " (from this environment)"}\n`,
  );
  if (SCENARIOS.has("single")) await singleHousehold(adminUrl);
  if (SCENARIOS.has("multi")) await multiHousehold(adminUrl);
  if (SCENARIOS.has("writes")) await writesIntoOneHousehold(adminUrl);
  if (SCENARIOS.has("pglite")) await embedded();
  if (SCENARIOS.has("hearth")) await wholeHearth(adminUrl);
  process.stdout.write(`\nTotal run time ${((performance.now() - startedAt) / 1000).toFixed(0)} s\n`);
}

/** Many households, requests spread at random: the item-list cache is mostly cold. */
async function multiHousehold(adminUrl: string): Promise<void> {
  await withScratchDatabase(adminUrl, async (databaseUrl) => {
    const database = await openDatabase({ databaseUrl, dataDir: ":memory:", poolMax: POOL_SIZE });
    await migrateToLatest(database.knex);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
    const seedSeconds = await seedHouseholds(pgRaw(pool));
    const { child, port } = await startServer(databaseUrl);
    const tokenFor = tokensFor(BENCH_JWT_SECRET);
    const report = (line: string) => process.stdout.write(`${line}\n`);
    const results: Scenario[] = [];
    try {
      report(
        `\nSeeded ${HOUSEHOLDS} households × ${ITEMS_PER_HOUSEHOLD} items (${HOUSEHOLDS * ITEMS_PER_HOUSEHOLD} items, ${HOUSEHOLDS * 2} users) in ${seedSeconds.toFixed(1)} s; ${DURATION} s per scenario`,
      );
      const toNative = (sql: { text: string; bindings: readonly unknown[] }) =>
        toNativeSql(database.knex.raw(sql.text, [...sql.bindings] as never));
      for (const scenario of householdScenarios(toNative)) {
        const api = await runVaried(`http://127.0.0.1:${port}`, scenario, tokenFor);
        const raw = scenario.raw
          ? await runRawLoop(scenario.connections, () => scenario.raw?.(pgRaw(pool)) ?? Promise.resolve())
          : undefined;
        results.push({
          name: scenario.name,
          api,
          ...(raw ? { raw } : {}),
          errors: api.errors,
          rssMb: await rssOf(child),
        });
        report(
          `  ${scenario.name}: ${api.rps.toFixed(0)} req/s (raw ${raw?.rps.toFixed(0) ?? "–"}), ${api.errors} errors`,
        );
      }
      report("");
      report(
        `Multi-household: ${HOUSEHOLDS} households × ${ITEMS_PER_HOUSEHOLD} items, requests spread at random; 32 connections (POST: 16).`,
      );
      report(
        "| scenario | API req/s | p50 ms | p99 ms | raw SQL req/s | p50 ms | p99 ms | API/raw | errors | app RSS MB |",
      );
      report("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
      for (const r of results) {
        report(
          `| ${r.name} | ${figures(r.api)} | ${figures(r.raw)} | ${ratio(r.api, r.raw)} | ${r.errors} | ${r.rssMb?.toFixed(0) ?? "–"} |`,
        );
      }
    } finally {
      await pool.end();
      child.disconnect();
      await new Promise((resolve) => child.once("exit", resolve));
      await database.close();
    }
  });
}

async function singleHousehold(adminUrl: string): Promise<void> {
  await withScratchDatabase(adminUrl, async (databaseUrl) => {
    const database = await openDatabase({ databaseUrl, dataDir: ":memory:", poolMax: POOL_SIZE });
    await migrateToLatest(database.knex);
    const { child, port } = await startServer(databaseUrl);
    const cold = await startServer(databaseUrl, { ITEM_LIST_CACHE_SIZE: "0" });
    const base = `http://127.0.0.1:${port}/api/v1`;
    const coldBase = `http://127.0.0.1:${cold.port}/api/v1`;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
    try {
      // Account, household, freezers and compartments through the API; items through the repository.
      const session = await json(`${base}/auth/register`, "POST", undefined, {
        email: `bench-${createId()}@example.test`,
        password: "benchmark password",
        name: "Bench",
      });
      const token = session.accessToken;
      const userId = (session as unknown as { user: { id: string } }).user.id;
      const household = await json(`${base}/households`, "POST", token, { name: "Bench home" });
      const hid = household.id;
      const placements: { freezerId: string; compartmentId: string }[] = [];
      for (const freezerName of ["Kitchen", "Garage", "Basement"]) {
        const freezer = await json(`${base}/households/${hid}/freezers`, "POST", token, { name: freezerName });
        for (let position = 0; position < 4; position++) {
          const compartment = await json(
            `${base}/households/${hid}/freezers/${freezer.id}/compartments`,
            "POST",
            token,
            {
              name: `Drawer ${position + 1}`,
              position,
            },
          );
          placements.push({ freezerId: freezer.id, compartmentId: compartment.id });
        }
      }

      // The household's default categories: nine in ten items get one, in turn; units vary too.
      const categoryIds = (
        (await (
          await fetch(`${base}/households/${hid}/categories`, { headers: { Authorization: `Bearer ${token}` } })
        ).json()) as { id: string }[]
      ).map((category) => category.id);
      const UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;

      const seedStarted = performance.now();
      const repository = new KnexItemRepository(database.knex);
      const yearAgo = Date.now() - 365 * 86_400_000;
      const batch: FreezerItem[] = [];
      for (let index = 0; index < ITEM_COUNT; index++) {
        const placement = placements[index % placements.length];
        const createdAt = new Date(yearAgo + index * 300);
        batch.push({
          id: createId(),
          householdId: hid,
          freezerId: placement!.freezerId,
          compartmentId: placement!.compartmentId,
          name: itemName(index),
          quantity: 1 + (index % 6),
          unit: UNITS[index % UNITS.length] ?? "piece",
          categoryId: index % 10 === 9 ? null : (categoryIds[index % 10] ?? null),
          notes: index % 10 === 0 ? "Label on the lid" : null,
          storedAt: createdAt,
          expiresAt: index % 10 < 7 ? new Date(createdAt.getTime() + (30 + (index % 300)) * 86_400_000) : null,
          barcode: null,
          deletedAt: index % 50 === 0 ? createdAt : null,
          createdAt,
          updatedAt: createdAt,
          createdById: userId,
          updatedById: userId,
        });
        if (batch.length === 5_000) await repository.insertMany(batch.splice(0));
      }
      await repository.insertMany(batch.splice(0));
      await database.knex.raw("VACUUM ANALYZE freezer_items");
      const seedSeconds = (performance.now() - seedStarted) / 1000;

      if (process.env.BENCH_SEED_ONLY === "1") return;
      const listPage = await json(`${base}/households/${hid}/items?limit=2`, "GET", token);
      const [patchItem, historyItem] = (listPage as unknown as { data: { id: string }[] }).data;
      for (let change = 1; change <= 20; change++) {
        await json(`${base}/households/${hid}/items/${historyItem!.id}`, "PATCH", token, { quantity: change + 10 });
      }

      const [a, b] = [placements[0]!.compartmentId, placements[5]!.compartmentId];
      const expiresBefore = new Date(Date.now() + 60 * 86_400_000).toISOString();
      const listQueries: { name: string; path: string; query: ItemListQuery }[] = [
        { name: "list: default page", path: "", query: { householdId: hid, page: 1, limit: 20 } },
        {
          name: `search: common word "${COMMON_WORD}"`,
          path: `?search=${COMMON_WORD}`,
          query: { householdId: hid, search: COMMON_WORD, page: 1, limit: 20 },
        },
        {
          name: `search: rare word "${RARE_WORD.toLowerCase()}"`,
          path: `?search=${RARE_WORD.toLowerCase()}`,
          query: { householdId: hid, search: RARE_WORD.toLowerCase(), page: 1, limit: 20 },
        },
        {
          // Only the trigram index finds it: "rabi" begins no word (infix search).
          name: `search: inside words "${INFIX_WORD}"`,
          path: `?search=${INFIX_WORD}`,
          query: { householdId: hid, search: INFIX_WORD, page: 1, limit: 20 },
        },
        {
          name: "filters: 2 compartments + expiresBefore",
          path: `?compartmentIds[]=${a}&compartmentIds[]=${b}&expiresBefore=${encodeURIComponent(expiresBefore)}`,
          query: {
            householdId: hid,
            compartmentIds: [a, b],
            expiresBefore: new Date(expiresBefore),
            page: 1,
            limit: 20,
          },
        },
        {
          // One of nine categories: about 10 000 matches, from freezer_items_household_category_idx.
          name: "filter: one category",
          path: `?categoryId=${categoryIds[0]}`,
          query: { householdId: hid, categoryId: categoryIds[0], page: 1, limit: 20 },
        },
      ];

      const results: Scenario[] = [];
      const report = (line: string) => process.stdout.write(`${line}\n`);
      report(
        `Seeded ${ITEM_COUNT} items in ${seedSeconds.toFixed(1)} s; ${CONNECTIONS} connections, ${DURATION} s per scenario`,
      );
      for (const scenario of listQueries) {
        const api = await runHttp(base, token, `/households/${hid}/items${scenario.path}`);
        const uncached = await runHttp(coldBase, token, `/households/${hid}/items${scenario.path}`);
        const sql = buildItemListSql(scenario.query);
        const total = buildItemTotalSql(scenario.query);
        const raw = await runRaw(pool, {
          page: toNative(database.knex.raw(sql.page.text, sql.page.bindings)),
          // The exact total the repository reads: the household's counters, or a count of the matches.
          ...(sql.countInPage ? {} : { count: toNative(database.knex.raw(total.text, total.bindings)) }),
        });
        results.push({
          name: scenario.name,
          api,
          cold: uncached,
          raw,
          errors: api.errors + uncached.errors,
          rssMb: await rssOf(child),
        });
        report(
          `  ${scenario.name}: ${api.rps.toFixed(0)} req/s (cache off ${uncached.rps.toFixed(0)}, raw ${raw.rps.toFixed(0)})`,
        );
      }
      const single: { name: string; path: string; method?: "GET" | "PATCH"; body?: () => string }[] = [
        { name: "get one item", path: `/households/${hid}/items/${patchItem!.id}` },
        {
          name: "PATCH one item",
          path: `/households/${hid}/items/${patchItem!.id}`,
          method: "PATCH",
          body: () => JSON.stringify({ quantity: 1 + Math.floor(Math.random() * 1000) }),
        },
        { name: "history (20 entries)", path: `/households/${hid}/items/${historyItem!.id}/history` },
      ];
      for (const scenario of single) {
        const api = await runHttp(base, token, scenario.path, { method: scenario.method, body: scenario.body });
        results.push({ name: scenario.name, api, errors: api.errors, rssMb: await rssOf(child) });
        report(`  ${scenario.name}: ${api.rps.toFixed(0)} req/s`);
      }
      const into = placements[0]!;
      const creation = createScenario("POST items (16 connections)", {
        household: hid,
        freezer: into.freezerId,
        compartment: into.compartmentId,
        user: userId,
      });
      const posted = await runVaried(`http://127.0.0.1:${port}`, creation, () => token);
      const rawPosted = await runRawLoop(creation.connections, () => creation.raw?.(pgRaw(pool)) ?? Promise.resolve());
      results.push({
        name: creation.name,
        api: posted,
        raw: rawPosted,
        errors: posted.errors,
        rssMb: await rssOf(child),
      });
      report(`  ${creation.name}: ${posted.rps.toFixed(0)} items/s (raw INSERT ${rawPosted.rps.toFixed(0)})`);

      report("");
      report(`Single household of ${ITEM_COUNT} items.`);
      report(
        "API: the app as configured by default (item-list cache on); cache off: ITEM_LIST_CACHE_SIZE=0; raw: the same SQL through node-postgres.",
      );
      report(
        "| scenario | API req/s | p50 ms | p99 ms | cache off req/s | p50 ms | p99 ms | raw SQL req/s | p50 ms | p99 ms | API/raw | cache off/raw | errors | app RSS MB |",
      );
      report("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
      for (const r of results) {
        report(
          `| ${r.name} | ${figures(r.api)} | ${figures(r.cold)} | ${figures(r.raw)} | ${ratio(r.api, r.raw)} | ${ratio(r.cold, r.raw)} | ${r.errors} | ${r.rssMb?.toFixed(0) ?? "–"} |`,
        );
      }
    } finally {
      await pool.end();
      for (const app of [child, cold.child]) {
        app.disconnect();
        await new Promise((resolve) => app.once("exit", resolve));
      }
      await database.close();
    }
  });
}

/** A household created empty (id `hnew00000`, owner u00000000), for creation into a new household. */
async function addEmptyHousehold(
  db: RawDb,
): Promise<{ household: string; freezer: string; compartment: string; user: string }> {
  const user = ids.user(0);
  await db.transaction(async (query) => {
    await query(
      `INSERT INTO households (id, name, owner_id, created_at, updated_at) VALUES ('hnew00000', 'New home', $1, now(), now())`,
      [user],
    );
    await query(
      `INSERT INTO memberships (id, household_id, user_id, role, joined_at) VALUES ('mnew00000', 'hnew00000', $1, 'OWNER', now())`,
      [user],
    );
    await query(
      `INSERT INTO freezers (id, household_id, name, created_at, updated_at) VALUES ('fnew00000', 'hnew00000', 'Kitchen', now(), now())`,
    );
    await query(
      `INSERT INTO compartments (id, freezer_id, name, position, created_at) VALUES ('cnew00000', 'fnew00000', 'Drawer', 0, now())`,
    );
  });
  return { household: "hnew00000", freezer: "fnew00000", compartment: "cnew00000", user };
}

/** Rows of a table of API figures beside the raw baseline of the same run. */
function reportRows(report: (line: string) => void, results: (Scenario & { connections: number })[]): void {
  report(
    "| scenario | connections | API req/s | p50 ms | p99 ms | in the app p50 / p99 ms | raw req/s | p50 ms | p99 ms | API/raw | app CPU µs/req | errors | app RSS MB |",
  );
  report("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    report(
      `| ${r.name} | ${r.connections} | ${figures(r.api)} | ${served(r.api)} | ${figures(r.raw)} | ${ratio(r.api, r.raw)} | ${r.api.appCpuUs?.toFixed(0) ?? "–"} | ${r.errors} | ${r.rssMb?.toFixed(0) ?? "–"} |`,
    );
  }
}

/**
 * Writes into ONE household on PostgreSQL: POST at 16 connections into a new (empty)
 * household and into one of 100 items, PATCH of its 100 items at 32 connections; each beside
 * the same writes as raw SQL in the same run.
 */
async function writesIntoOneHousehold(adminUrl: string): Promise<void> {
  await withScratchDatabase(adminUrl, async (databaseUrl) => {
    const database = await openDatabase({ databaseUrl, dataDir: ":memory:", poolMax: POOL_SIZE });
    await migrateToLatest(database.knex);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
    const layout = new Layout(1, 100);
    await seedHouseholds(pgRaw(pool), layout);
    const empty = await addEmptyHousehold(pgRaw(pool));
    const { child, port } = await startServer(databaseUrl);
    const tokenFor = tokensFor(BENCH_JWT_SECRET);
    const report = (line: string) => process.stdout.write(`${line}\n`);
    const patch = householdScenarios(sqlToNative, layout).find((scenario) => scenario.name.startsWith("PATCH"))!;
    const scenarios: HouseholdScenario[] = [
      createScenario("POST into a new household", empty),
      { ...patch, name: "PATCH the 100 items of one household" },
      createScenario("POST into a household of 100 items", {
        household: ids.household(0),
        freezer: ids.freezer(0),
        compartment: ids.compartment(0, 0),
        user: ids.user(0),
      }),
    ];
    const results: (Scenario & { connections: number })[] = [];
    // BENCH_ONLY (a regular expression on scenario names, "before" rows included) narrows a profiling run.
    const only = new RegExp(process.env.BENCH_ONLY ?? "");
    try {
      for (const scenario of scenarios) {
        if (!only.test(scenario.name)) continue;
        const api = await runVaried(`http://127.0.0.1:${port}`, scenario, tokenFor, child);
        const raw = await runRawLoop(scenario.connections, () => scenario.raw?.(pgRaw(pool)) ?? Promise.resolve());
        results.push({
          name: scenario.name,
          connections: scenario.connections,
          api,
          raw,
          errors: api.errors,
          rssMb: await rssOf(child),
        });
        report(`  ${scenario.name}: ${api.rps.toFixed(0)} req/s (raw ${raw.rps.toFixed(0)}), ${api.errors} errors`);
      }
      // The same writes with the one revision row per household that 20261125130000 replaced
      // (its down migration restores those triggers; nothing here reads the counters).
      await dropCounters(database.knex);
      for (const scenario of scenarios) {
        const name = `${scenario.name}, before: one revision row per household`;
        if (!only.test(name)) continue;
        const api = await runVaried(`http://127.0.0.1:${port}`, scenario, tokenFor, child);
        const raw = await runRawLoop(scenario.connections, () => scenario.raw?.(pgRaw(pool)) ?? Promise.resolve());
        results.push({
          name,
          connections: scenario.connections,
          api,
          raw,
          errors: api.errors,
          rssMb: await rssOf(child),
        });
        report(`  ${name}: ${api.rps.toFixed(0)} req/s (raw ${raw.rps.toFixed(0)}), ${api.errors} errors`);
      }
      report("");
      report("Writes into one household (PostgreSQL); raw: the same writes through node-postgres, pool of 10.");
      reportRows(report, results);
    } finally {
      await pool.end();
      child.disconnect();
      await new Promise((resolve) => child.once("exit", resolve));
      await database.close();
    }
  });
}

/** Native SQL for the raw baselines, without a connection. */
const sqlOnly = knexFactory({ client: "pg" });
function sqlToNative(sql: { text: string; bindings: readonly unknown[] }): [string, unknown[]] {
  return toNativeSql(sqlOnly.raw(sql.text, [...sql.bindings] as never));
}

/** {@link RawDb} straight on the PGlite instance under a knex of openDatabase (no knex in between). */
function pgliteRaw(database: Database): RawDb {
  const pglite = database.embedded;
  if (!pglite) throw new Error("the raw PGlite baseline needs the embedded database");
  return {
    query: (text, params) => pglite.query(text, params),
    async transaction(body) {
      await pglite.transaction(async (tx) => {
        await body((text, params) => tx.query(text, params));
      });
    },
  };
}

/** Migrates a new PGlite data directory and seeds `layout` into it; returns the seconds the seeding took. */
async function seedPglite(directory: string, layout: Layout): Promise<number> {
  const database = await openDatabase({ dataDir: directory });
  try {
    await migrateToLatest(database.knex);
    return await seedHouseholds(pgliteRaw(database), layout);
  } finally {
    await database.close();
  }
}

/**
 * The embedded database (PGlite), Hearth's default: one household of BENCH_PGLITE_ITEMS
 * (10 000) items, every scenario at 8 and at 32 connections against the app on a PGlite data
 * directory, then the same queries straight on PGlite in this process (the app has exited:
 * PGlite is one process's database) as the baseline of the same run.
 */
async function embedded(): Promise<void> {
  const directory = await mkdtemp(path.join(tmpdir(), "hearth-bench-pglite-"));
  const report = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const layout = new Layout(1, PGLITE_ITEMS);
    const seedSeconds = await seedPglite(path.join(directory, "seed"), layout);
    report(
      `\nPGlite: seeded one household of ${PGLITE_ITEMS} items in ${seedSeconds.toFixed(1)} s; ${DURATION} s per scenario`,
    );
    // BENCH_ONLY (a regular expression on scenario names) and BENCH_PGLITE_CONNECTIONS narrow a profiling run.
    const only = new RegExp(process.env.BENCH_ONLY ?? "");
    const scenarios = householdScenarios(sqlToNative, layout).filter((scenario) => only.test(scenario.name));
    const levels = (process.env.BENCH_PGLITE_CONNECTIONS ?? "8,32").split(",").map(Number);
    const modes = pgliteTurnModes();
    // One app per mode, each on its own copy of the seeded database, all started before the
    // first scenario: every scenario runs on each in turn (the order alternating), so both modes
    // see the same machine within seconds of each other.
    const apps: {
      mode: TurnMode;
      child: ChildProcess;
      port: number;
      results: (Scenario & { connections: number })[];
    }[] = [];
    for (const mode of modes) {
      const copy = path.join(directory, `app-${mode}`);
      await cp(path.join(directory, "seed"), copy, { recursive: true });
      const started = await startServer("", { BENCH_PGLITE_DIR: copy, BENCH_PGLITE_TURN: mode });
      apps.push({ mode, ...started, results: [] });
    }
    const tokenFor = tokensFor(BENCH_JWT_SECRET);
    const label = (mode: TurnMode) => (modes.length > 1 ? ` (turn ${mode})` : "");
    try {
      let round = 0;
      for (const connections of levels) {
        for (const scenario of scenarios) {
          const order = round++ % 2 === 0 ? apps : [...apps].reverse();
          for (const app of order) {
            const api = await runVaried(
              `http://127.0.0.1:${app.port}`,
              { ...scenario, connections },
              tokenFor,
              app.child,
            );
            app.results.push({
              name: scenario.name.replace(/ \(16 connections\)$/, ""),
              connections,
              api,
              errors: api.errors,
              rssMb: await rssOf(app.child),
            });
            report(
              `  ${scenario.name} at ${connections}${label(app.mode)}: ${api.rps.toFixed(0)} req/s, p99 ${api.p99} ms (in the app ${api.served?.p99.toFixed(1) ?? "–"} ms), ${api.errors} errors`,
            );
          }
        }
      }
      for (const app of apps) report(await peakLine(`The app's${label(app.mode)}`, app.child));
    } finally {
      for (const app of apps) {
        app.child.disconnect();
        await new Promise((resolve) => app.child.once("exit", resolve));
      }
    }
    const database = await openDatabase({ dataDir: path.join(directory, "seed") });
    try {
      const raw = pgliteRaw(database);
      let index = 0;
      for (const connections of levels) {
        for (const scenario of scenarios) {
          const measured = scenario.raw
            ? await runRawLoop(connections, () => scenario.raw?.(raw) ?? Promise.resolve())
            : undefined;
          for (const app of apps) if (measured) app.results[index]!.raw = measured;
          index++;
        }
      }
    } finally {
      await database.close();
    }
    for (const app of apps) {
      report("");
      report(
        `PGlite${label(app.mode)}, one household of ${PGLITE_ITEMS} items; raw: the same SQL straight on PGlite in one process.`,
      );
      reportRows(report, app.results);
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

type TurnMode = "on" | "off";

/**
 * BENCH_PGLITE_TURN: "on" (default, what Hearth runs), "off" (PGlite statements without the
 * event loop's turn first, PgliteStatementCache) or "both" (an app of each, side by side).
 */
function pgliteTurnModes(): TurnMode[] {
  const value = process.env.BENCH_PGLITE_TURN ?? "on";
  if (value === "on" || value === "off") return [value];
  if (value === "both") return ["on", "off"];
  throw new Error(`BENCH_PGLITE_TURN: ${JSON.stringify(value)} is none of on, off, both`);
}

/** Where an app of the `hearth` group finds its database: DATABASE_URL ("" for PGlite) and the rest of its environment. */
interface AppDatabase {
  databaseUrl: string;
  env: Record<string, string>;
}

/**
 * The inventory API alone (bench/inventory-app.mjs, what the other scenarios measure) against
 * the same requests to `hearth start` (bench/hearth-app.mjs): the whole process a self-hoster
 * runs, with default settings, the example automations, the inventory events delivered to the
 * engine and MQTT (MQTT_HOST unset: the broker on localhost when one answers, else the embedded
 * one). On each of BENCH_HEARTH_DATABASES (default both): PGlite, the default database, and
 * PostgreSQL (a scratch database per app under BENCH_DATABASE_URL). Each app gets its own copy of
 * one seeded household of BENCH_PGLITE_ITEMS items; each scenario runs on one app, then on the
 * other, at BENCH_HEARTH_CONNECTIONS (default 8: a family's phones and a few automations, not a
 * crowd).
 */
async function wholeHearth(adminUrl: string): Promise<void> {
  const layout = new Layout(1, PGLITE_ITEMS);
  for (const name of (process.env.BENCH_HEARTH_DATABASES ?? "pglite,postgres").split(",").map((part) => part.trim())) {
    const scratch = await mkdtemp(path.join(tmpdir(), "hearth-bench-whole-"));
    try {
      if (name === "pglite") {
        await seedPglite(path.join(scratch, "seed"), layout);
        await cp(path.join(scratch, "seed"), path.join(scratch, "api"), { recursive: true });
        await cp(path.join(scratch, "seed"), path.join(scratch, "hearth"), { recursive: true });
        await compareWithHearth(
          "PGlite",
          layout,
          { databaseUrl: "", env: { BENCH_PGLITE_DIR: path.join(scratch, "api") } },
          { databaseUrl: "", env: { DATA_DIR: path.join(scratch, "hearth") } },
        );
      } else if (name === "postgres") {
        await withScratchDatabase(adminUrl, (apiUrl) =>
          withScratchDatabase(adminUrl, async (hearthUrl) => {
            for (const url of [apiUrl, hearthUrl]) await seedPostgres(url, layout);
            await compareWithHearth(
              "PostgreSQL",
              layout,
              { databaseUrl: apiUrl, env: {} },
              // Hearth keeps its engine state and the type check's result in DATA_DIR either way.
              { databaseUrl: hearthUrl, env: { DATA_DIR: path.join(scratch, "hearth") } },
            );
          }),
        );
      } else {
        throw new Error(`BENCH_HEARTH_DATABASES: ${JSON.stringify(name)} is neither pglite nor postgres`);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}

/** Migrates a new PostgreSQL database and seeds `layout` into it. */
async function seedPostgres(databaseUrl: string, layout: Layout): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir: ":memory:", poolMax: POOL_SIZE });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  try {
    await migrateToLatest(database.knex);
    await seedHouseholds(pgRaw(pool), layout);
  } finally {
    await pool.end();
    await database.close();
  }
}

/** The `hearth` group's scenarios on the API alone and on `hearth start`, each on its own copy of the seeded household. */
async function compareWithHearth(
  label: string,
  layout: Layout,
  aloneDatabase: AppDatabase,
  hearthDatabase: AppDatabase,
): Promise<void> {
  const report = (line: string) => process.stdout.write(`${line}\n`);
  const connections = Number(process.env.BENCH_HEARTH_CONNECTIONS ?? 8);
  const only = new RegExp(process.env.BENCH_ONLY ?? "");
  const scenarios = householdScenarios(sqlToNative, layout).filter((scenario) => only.test(scenario.name));
  const api = await startServer(aloneDatabase.databaseUrl, aloneDatabase.env);
  const hearth = await startServer(hearthDatabase.databaseUrl, hearthDatabase.env, "hearth-app.mjs");
  const tokenFor = tokensFor(BENCH_JWT_SECRET);
  const rows: {
    name: string;
    alone: Measured;
    whole: Measured;
    aloneRss: number;
    wholeRss: number;
    errors: number;
  }[] = [];
  try {
    // The start-up type check of the automations runs in a process of its own (the native
    // compiler until it answers, the JavaScript compiler's worker until 30 s after); the figures
    // are of a Hearth that has none.
    const waited = await typeCheckDone(hearth.child.pid!);
    report(
      `\nThe API alone against hearth start (${label}, one household of ${layout.itemsPerHousehold} items, ${connections} connections; waited ${waited.toFixed(0)} s for the start-up type check)`,
    );
    for (const scenario of scenarios) {
      const run = (app: { child: ChildProcess; port: number }) =>
        runVaried(`http://127.0.0.1:${app.port}`, { ...scenario, connections }, tokenFor, app.child);
      const alone = await run(api);
      const aloneRss = await rssOf(api.child);
      const whole = await run(hearth);
      const wholeRss = await rssOf(hearth.child);
      const name = scenario.name.replace(/ \(16 connections\)$/, "");
      rows.push({ name, alone, whole, aloneRss, wholeRss, errors: alone.errors + whole.errors });
      report(`  ${name}: ${alone.rps.toFixed(0)} req/s alone, ${whole.rps.toFixed(0)} in hearth start`);
    }
    report(await peakLine("  The API alone's", api.child));
    report(await peakLine("  hearth start's", hearth.child));
  } finally {
    for (const app of [api, hearth]) {
      app.child.disconnect();
      await new Promise((resolve) => app.child.once("exit", resolve));
    }
  }
  report("");
  report(`${label}:`);
  report(
    "| scenario | alone req/s | p50 ms | p99 ms | in the app p50 / p99 ms | hearth start req/s | p50 ms | p99 ms | in the app p50 / p99 ms | req/s whole/alone | app CPU µs/req alone | whole | errors | RSS MB alone | whole |",
  );
  report("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    report(
      `| ${row.name} | ${figures(row.alone)} | ${served(row.alone)} | ${figures(row.whole)} | ${served(row.whole)} | ${ratio(row.whole, row.alone)} | ${row.alone.appCpuUs?.toFixed(0) ?? "–"} | ${row.whole.appCpuUs?.toFixed(0) ?? "–"} | ${row.errors} | ${row.aloneRss.toFixed(0)} | ${row.wholeRss.toFixed(0)} |`,
    );
  }
}

runOnRequestedNodes("bench/inventory.ts");
await main();
