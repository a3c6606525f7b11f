/**
 * The cap on the C library's malloc pools (arenas) `hearth start` runs under unless its
 * environment sets one. glibc gives each thread that allocates at once a pool of its own, up to
 * eight per core, and keeps what each pool once held. On PGlite under 32 API clients, Node 24
 * held 305–308 MB where Node 20 held 243–248, with V8's heap and PGlite's memory alike on both;
 * with two pools Node 24 held 267–270 MB, and throughput and p99 moved within the machine's
 * spread (docs/performance.md).
 */
export const SMALL_MALLOC_ARENA_MAX = "2";

/** What {@link smallMallocPoolsRestart} decides from. */
export interface ProcessFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The command's arguments: `process.argv.slice(2)`. */
  args: readonly string[];
  execArgv: readonly string[];
  /** Whether the process talks to its parent over an IPC channel (forked, or run by pm2). */
  hasIpcChannel: boolean;
  /** Whether this Node has `process.execve` (22.15+, 23.11+). */
  canExecve: boolean;
  /** Whether the C library is glibc; asked only when everything else allows the restart. */
  isGlibc: () => boolean;
}

/** Why Hearth runs on as it is, or the environment to run itself again with. */
export type MallocPoolsDecision = { restart: false; reason: string } | { restart: true; env: NodeJS.ProcessEnv };

/**
 * Whether `hearth start` should run itself again, in the same process, with
 * {@link SMALL_MALLOC_ARENA_MAX}. glibc reads `MALLOC_ARENA_MAX` only when a process starts, so
 * setting it from inside means replacing the process image (`process.execve`: same pid, same
 * stdio, nothing loaded yet). It stays as it is when the owner set the variable (any value,
 * `0` gives glibc's default back), for other commands (they end within seconds), off Linux or
 * glibc (musl's malloc has no such pools), on Node without `process.execve` (Node 20: it held
 * under 250 MB there without the cap), under a debugger (its session would end), and with an
 * IPC channel to a parent, which does not survive the replacement.
 */
export function smallMallocPoolsRestart(facts: ProcessFacts): MallocPoolsDecision {
  if (facts.env.MALLOC_ARENA_MAX !== undefined) return { restart: false, reason: "MALLOC_ARENA_MAX is set" };
  if (facts.args[0] !== "start") return { restart: false, reason: "not `hearth start`" };
  if (facts.platform !== "linux") return { restart: false, reason: "not Linux" };
  if (!facts.canExecve) return { restart: false, reason: "no process.execve on this Node" };
  if (facts.hasIpcChannel) return { restart: false, reason: "an IPC channel to the parent" };
  const inspecting = /(^|\s)--inspect/;
  if (inspecting.test(facts.execArgv.join(" ")) || inspecting.test(facts.env.NODE_OPTIONS ?? "")) {
    return { restart: false, reason: "a debugger is attached" };
  }
  if (!facts.isGlibc()) return { restart: false, reason: "not glibc" };
  return { restart: true, env: { ...facts.env, MALLOC_ARENA_MAX: SMALL_MALLOC_ARENA_MAX } };
}

/** Whether this process runs on glibc (Node's report names the glibc version it runs on). */
export function runsOnGlibc(): boolean {
  // Node types the report as a plain object; its header names the glibc it runs on, if any.
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: unknown } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === "string";
}

/** `process.execve` where this Node has it (22.15+, 23.11+); Node 20's types do not know it. */
function processExecve(): ((file: string, args: string[], env: NodeJS.ProcessEnv) => never) | undefined {
  return (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
}

/** The facts of this very process, for {@link smallMallocPoolsRestart}. */
export function processFacts(): ProcessFacts {
  return {
    platform: process.platform,
    env: process.env,
    args: process.argv.slice(2),
    execArgv: process.execArgv,
    hasIpcChannel: process.channel !== undefined,
    canExecve: typeof processExecve() === "function",
    isGlibc: runsOnGlibc,
  };
}

/**
 * Runs this `hearth start` again with the malloc pools capped, as {@link smallMallocPoolsRestart}
 * decides; returns only when it stays as it is. Called before Hearth's modules load, so the
 * restart costs one Node start-up. If the replacement fails (a permission model that forbids
 * it, say), Hearth runs on with glibc's default pools.
 */
export function restartWithSmallMallocPools(): void {
  const execve = processExecve();
  const decision = smallMallocPoolsRestart(processFacts());
  if (!decision.restart || !execve) return;
  try {
    execve.call(
      process,
      process.execPath,
      [process.execPath, ...process.execArgv, ...process.argv.slice(1)],
      decision.env,
    );
  } catch {
    // Runs on with the default pools: more memory on Node 24, nothing else changes.
  }
}
