/**
 * `npm run bench:import`: what a big household import costs the server process.
 *
 * Starts Hearth (`hearth start` from the sources, through tsx) as a child process under
 * `--max-old-space-size=256` (a 1 GB board) on embedded PGlite, or on PostgreSQL with
 * BENCH_DATABASE_URL, generates household files into a temporary folder and posts them to
 * `POST /households/:hid/import` as a client would (streamed from disk). Prints:
 *
 * - for a JSON and a CSV file of BENCH_IMPORT_MB (default 200) MB: the import's answer and
 *   duration, the process's RSS before it and its peak while it ran (sampled every 20 ms);
 * - another household's `GET /items` latency (p50, p99, max) while a JSON import of
 *   BENCH_LATENCY_MB (default 40) MB runs, against a baseline of the same requests measured
 *   just before in the same process (the ratio is what to read on a noisy machine).
 *
 * BENCH_FORMATS (default "json,csv") picks the memory runs; BENCH_LATENCY_MB=0 skips the latency run.
 * BENCH_HEARTH_ROOT runs another checkout (e.g. an older commit from `git archive`) with the
 * same files, for before/after figures. BENCH_HEAP_MB changes the heap limit. Linux only
 * (reads /proc). The files are deleted at the end.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { finished } from "node:stream/promises";
import {
  call,
  freezerWithCompartment,
  freshServer,
  household,
  peakRss,
  type ServerOptions,
  sleep,
  stopServer,
} from "./hearth-child.js";

const ROOT = path.resolve(process.env.BENCH_HEARTH_ROOT ?? path.join(import.meta.dirname, ".."));
const IMPORT_MB = Number(process.env.BENCH_IMPORT_MB ?? 200);
const LATENCY_MB = Number(process.env.BENCH_LATENCY_MB ?? 40);
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 256);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const MB = 1024 * 1024;
const SERVER: ServerOptions = { root: ROOT, heapMb: HEAP_MB, databaseUrl: DATABASE_URL };
/** Each generated item carries this many characters of notes (the API's longest: 2 000). */
const NOTES = 1950;
/** About what one generated item takes in either format. */
const ITEM_BYTES = 2108;
/** How often the other household asks for its items while measuring latency. */
const INTERVAL_MS = 25;

function item(index: number) {
  return {
    id: `bench${String(index).padStart(9, "0")}`,
    name: `Item ${index} ${index % 7 === 0 ? "chicken thighs" : "peas"}`,
    quantity: 1 + (index % 4),
    freezerName: index % 2 === 0 ? "Kitchen" : "Garage",
    compartmentName: `Drawer ${index % 3}`,
    notes: `${index} `.padEnd(NOTES, "frozen in summer, label on the lid; "),
    expiresAt: "2027-06-01T00:00:00Z",
  };
}

/** Writes `count` items as a household file in `format`, streamed so the bench stays small too. */
async function generate(file: string, format: "json" | "csv", count: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
  const columns = ["id", "name", "quantity", "freezerName", "compartmentName", "notes", "expiresAt"] as const;
  await write(format === "json" ? '{"items":[' : `${columns.join(",")}\r\n`);
  for (let index = 0; index < count; index++) {
    const row = item(index);
    if (format === "json") await write(`${index === 0 ? "" : ","}${JSON.stringify(row)}`);
    else await write(`${columns.map((column) => `"${String(row[column]).replaceAll('"', '""')}"`).join(",")}\r\n`);
  }
  out.end(format === "json" ? "]}" : "");
  await finished(out);
  return (await stat(file)).size;
}

/** Posts a file from disk, streamed; resolves with the status and body. */
function postFile(url: string, token: string, file: string, format: "json" | "csv") {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": format === "csv" ? "text/csv" : "application/json",
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
    createReadStream(file).pipe(request);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/**
 * `GET /items` of a household every INTERVAL_MS, whether or not the last one was answered (a
 * stalled server then shows in every request that waited, not in just one), until `until`
 * settles or for `until` ms; the latencies sorted.
 */
async function latencies(api: string, who: { token: string; hid: string }, until: Promise<unknown> | number) {
  const pending: Promise<number>[] = [];
  const deadline = typeof until === "number" ? performance.now() + until : Number.POSITIVE_INFINITY;
  let done = false;
  if (typeof until !== "number") void until.finally(() => (done = true));
  while (!done && performance.now() < deadline) {
    const started = performance.now();
    pending.push(
      call("GET", `${api}/households/${who.hid}/items?limit=20`, who.token).then(
        () => performance.now() - started,
        // A refused or reset request counts as never answered.
        () => Number.POSITIVE_INFINITY,
      ),
    );
    await sleep(INTERVAL_MS);
  }
  return (await Promise.all(pending)).sort((a, b) => a - b);
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(tmpdir(), "hearth-bench-import-"));
  process.stdout.write(
    `Hearth at ${ROOT}, --max-old-space-size=${HEAP_MB}, ${DATABASE_URL ? "PostgreSQL" : "PGlite"}\n`,
  );
  try {
    const formats = (process.env.BENCH_FORMATS ?? "json,csv").split(",").filter(Boolean) as ("json" | "csv")[];
    for (const format of formats) {
      const file = path.join(scratch, `household.${format}`);
      const count = Math.round((IMPORT_MB * MB) / ITEM_BYTES);
      const size = await generate(file, format, count);
      const server = await freshServer(scratch, SERVER);
      try {
        const owner = await household(server.api);
        const started = performance.now();
        const { result, before, peak } = await peakRss(server.child.pid as number, () =>
          postFile(`${server.api}/households/${owner.hid}/import`, owner.token, file, format).catch((error: Error) => ({
            status: 0,
            body: error.message,
          })),
        );
        const seconds = (performance.now() - started) / 1000;
        process.stdout.write(
          `${format.toUpperCase()} import, ${count} items, ${mb(size)}: ${result.status} ${result.body.slice(0, 160)}\n` +
            `  ${seconds.toFixed(1)} s; RSS before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)})\n`,
        );
        if (server.child.exitCode !== null)
          process.stdout.write(`  the server died:\n${server.output().slice(-2000)}\n`);
      } finally {
        await stopServer(server);
        await rm(file, { force: true });
      }
    }

    if (LATENCY_MB <= 0) return;
    const file = path.join(scratch, "latency.json");
    const count = Math.round((LATENCY_MB * MB) / ITEM_BYTES);
    const size = await generate(file, "json", count);
    const server = await freshServer(scratch, SERVER);
    try {
      const importer = await household(server.api);
      const other = await household(server.api);
      const { freezerId, compartmentId } = await freezerWithCompartment(server.api, other, {
        freezer: "Chest",
        compartment: "Basket",
      });
      for (let index = 0; index < 50; index++)
        await call("POST", `${server.api}/households/${other.hid}/items`, other.token, {
          name: `Peas ${index}`,
          quantity: 1,
          freezerId,
          compartmentId,
        });
      await latencies(server.api, other, 2000); // warm-up
      const baseline = await latencies(server.api, other, 10_000);
      const started = performance.now();
      const imported = postFile(`${server.api}/households/${importer.hid}/import`, importer.token, file, "json");
      const during = await latencies(server.api, other, imported);
      const answer = await imported;
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `Another household's GET /items during a ${mb(size)} JSON import (${count} items, ${answer.status}, ${seconds.toFixed(1)} s):\n` +
          `  baseline (no import): ${baseline.length} requests, p50 ${ms(percentile(baseline, 50))}, p99 ${ms(percentile(baseline, 99))}, max ${ms(baseline.at(-1) ?? 0)}\n` +
          `  during the import:    ${during.length} requests, p50 ${ms(percentile(during, 50))}, p99 ${ms(percentile(during, 99))}, max ${ms(during.at(-1) ?? 0)}\n` +
          `  p99 during / baseline: ${(percentile(during, 99) / percentile(baseline, 99)).toFixed(1)}x\n`,
      );
    } finally {
      await stopServer(server);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
