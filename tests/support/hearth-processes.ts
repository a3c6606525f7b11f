import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { compiledRuntimeStaleness } from "../../scripts/dist-freshness.mjs";
import { acquireBroker, acquireDatabase, type TestBroker, type TestDatabase } from "./test-servers.js";

/** What a suite that runs Hearth processes shares: the test servers and a scratch folder. */
export interface ProcessServers {
  database: TestDatabase;
  broker: TestBroker;
  scratch: string;
  /** The servers as Hearth's environment (DATABASE_URL when PostgreSQL, MQTT_HOST, MQTT_PORT). */
  env(): Record<string, string>;
}

/**
 * Acquires the test servers and a scratch folder in `before` and gives them back in `after`
 * (call inside a describe). Read the fields inside tests and hooks, not at load time.
 */
export function useProcessServers(label: string): ProcessServers {
  // Filled in by before(); tests only read the fields once it ran.
  const servers = {
    env(): Record<string, string> {
      return {
        MQTT_HOST: servers.broker.host,
        MQTT_PORT: String(servers.broker.port),
        ...(servers.database.url ? { DATABASE_URL: servers.database.url } : {}),
      };
    },
  } as unknown as ProcessServers;
  before(async () => {
    servers.database = await acquireDatabase(label);
    servers.broker = await acquireBroker(label);
    servers.scratch = await mkdtemp(path.join(tmpdir(), "hearth-process-"));
  });
  after(async () => {
    await servers.database?.release();
    await servers.broker?.release();
    if (servers.scratch) await rm(servers.scratch, { recursive: true, force: true });
  });
  return servers;
}

export interface LaunchedProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

let compiledRuntimeChecked = false;

/**
 * bin/hearth.js runs the compiled dist/, not src/: a test of it after editing src/ without a
 * build would test yesterday's code. Says so plainly rather than passing or failing for the
 * wrong reason. (`npm ci` and `npm run build` build dist/.)
 */
export function assertCompiledRuntimeFresh(): void {
  if (compiledRuntimeChecked) return;
  const staleness = compiledRuntimeStaleness(path.resolve("."));
  if (staleness === "missing") {
    throw new Error("dist/ is not built; bin/hearth.js runs the compiled output. Run `npm run build` first.");
  }
  if (staleness === "stale") {
    throw new Error(
      "src/ or migrations/ changed after dist/ was built; bin/hearth.js runs dist/. Run `npm run build` first.",
    );
  }
  compiledRuntimeChecked = true;
}

/**
 * Starts a command in this checkout (or `cwd`) with only PATH, HOME and `env` in its
 * environment, collecting its output.
 */
export function launch(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = path.resolve("."),
): LaunchedProcess {
  if (args[0] === "bin/hearth.js") assertCompiledRuntimeFresh();
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}
