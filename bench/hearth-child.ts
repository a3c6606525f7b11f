/**
 * `hearth start` as a child process for the benches that measure what the server process
 * costs (`bench:import`, `bench:photos`): started from the sources of a checkout, on a data
 * directory of its own, with the process's memory read from /proc (Linux only).
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { launch } from "../tests/support/launch.js";
import { freePort } from "../tests/support/network.js";

export interface Server {
  child: ChildProcess;
  api: string;
  exited: Promise<number | null>;
  output(): string;
}

export interface ServerOptions {
  /** The checkout whose sources run. */
  root: string;
  /** `--max-old-space-size`; Node's default when absent (what `hearth start` runs with). */
  heapMb?: number | undefined;
  /** PostgreSQL; embedded PGlite when absent. */
  databaseUrl?: string | undefined;
  /** More environment for the server. */
  env?: Record<string, string>;
  /**
   * "dist": `bin/hearth.js start`, the build users run (`npm run build` first); "sources": the
   * TypeScript through tsx (default), which needs no build but carries the loader's memory.
   */
  entry?: "dist" | "sources";
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function statusOf(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
}

export async function startServer(scratch: string, dataDir: string, options: ServerOptions): Promise<Server> {
  const apiPort = await freePort();
  const automations = path.join(scratch, "automations");
  await mkdir(automations, { recursive: true });
  const args = [
    ...(options.heapMb ? [`--max-old-space-size=${options.heapMb}`] : []),
    ...(options.entry === "dist"
      ? [path.join(options.root, "bin/hearth.js")]
      : ["--conditions=hearth-source", "--import", "tsx", path.join(options.root, "src/composition/main.ts")]),
    "start",
  ];
  const { child, exited, output } = launch(
    process.execPath,
    args,
    {
      API_PORT: String(apiPort),
      HTTP_PORT: "0",
      DATA_DIR: dataDir,
      AUTOMATIONS_DIR: automations,
      LOG_LEVEL: "warn",
      JWT_SECRET: "bench-hearth-child-secret-0123456789abcdefghij",
      RATE_LIMIT_PER_MINUTE: "10000000",
      AUTH_RATE_LIMIT_PER_MINUTE: "10000000",
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    options.root,
  );
  const api = `http://127.0.0.1:${apiPort}/api/v1`;
  const started = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${api}/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null) throw new Error(`hearth start exited with ${child.exitCode}:\n${output()}`);
    if (performance.now() - started > 600_000)
      throw new Error(`hearth start did not answer within 600 s:\n${output()}`);
    await sleep(100);
  }
  return { child, api, exited, output };
}

export async function stopServer(server: Server): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

/**
 * A server on a database of its own, started a second time: PGlite's first start (initdb in
 * WebAssembly) leaves the process far bigger than any later start, and WebAssembly memory
 * never shrinks, so the first start's peak would hide what is measured.
 */
export async function freshServer(scratch: string, options: ServerOptions): Promise<Server> {
  const dataDir = path.join(scratch, `data-${Date.now()}`);
  await stopServer(await startServer(scratch, dataDir, options));
  return startServer(scratch, dataDir, options);
}

export async function call(
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A new owner with a household. */
export async function household(api: string) {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const { accessToken } = (await call("POST", `${api}/auth/register`, undefined, {
    email,
    password: "correct horse battery",
    name: "Bench",
  })) as { accessToken: string };
  const { id } = (await call("POST", `${api}/households`, accessToken, { name: "Bench" })) as { id: string };
  return { token: accessToken, hid: id };
}

/** A freezer with one compartment in the owner's household. */
export async function freezerWithCompartment(
  api: string,
  owner: { token: string; hid: string },
  names = { freezer: "Chest", compartment: "Top" },
): Promise<{ freezerId: string; compartmentId: string }> {
  const freezer = (await call("POST", `${api}/households/${owner.hid}/freezers`, owner.token, {
    name: names.freezer,
  })) as { id: string };
  const compartment = (await call(
    "POST",
    `${api}/households/${owner.hid}/freezers/${freezer.id}/compartments`,
    owner.token,
    { name: names.compartment },
  )) as { id: string };
  return { freezerId: freezer.id, compartmentId: compartment.id };
}

/** Samples the process's RSS every 20 ms while `body` runs. */
export async function peakRss<T>(
  pid: number,
  body: () => Promise<T>,
): Promise<{ result: T; before: number; peak: number }> {
  const before = statusOf(pid, "VmRSS");
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, statusOf(pid, "VmRSS"));
    } catch {
      // The process died; what the body gets back says so.
    }
  }, 20);
  try {
    const result = await body();
    return { result, before, peak };
  } finally {
    clearInterval(sampler);
  }
}
