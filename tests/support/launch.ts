/**
 * A command of this checkout as a child process with its output collected: the tests'
 * `hearth` runs and the benches' servers. Kept free of the test servers' modules so that a
 * bench can use it without loading them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { compiledRuntimeStaleness } from "../../scripts/dist-freshness.mjs";

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
