import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

/**
 * How far the old generation may grow past what survived the last full collection, in per
 * cent. V8 lets a busy process's heap limit grow up to fourfold past its live data; under 32
 * concurrent API clients Hearth's heap then reserved 110–135 MB for 35–45 MB of live objects.
 * At 30 % it reserved about 50 MB for the same load, RSS on PGlite was 224–258 MB instead of
 * 281–345 MB, and throughput and p99 latency stayed within the run-to-run noise
 * (docs/performance.md).
 */
export const OLD_GENERATION_GROWTH_PERCENT = 30;

/**
 * The semi-space size, in MB, the young generation may grow to once Hearth has started. At the
 * 1 MB it starts with, a request's objects outlive the scavenges that run while it waits for the
 * database, so V8 copies and promotes them and then collects them in full: under 16–32
 * concurrent API clients about a fifth of the app's CPU went to that. Growing to 4–8 MB
 * semi-spaces under load cut the app's CPU per write by a third for 7–12 MB more RSS
 * (docs/performance.md).
 */
export const STARTED_SEMI_SPACE_MB = 4;

/**
 * The `--wasm-tier-up-filter` that keeps WebAssembly on V8's baseline compiler (Liftoff): the
 * filter names the one function index that may move up to the optimizing compiler (TurboFan),
 * and no module has this one. PGlite is a WebAssembly build of PostgreSQL. On Node 24, opening it
 * peaked at 420–770 MB RSS once its hot functions moved up (Node 20 and 22: 240–290 MB), a start
 * of Hearth (`bench:footprint`) at 750–773 MB, and the API on PGlite under 32 clients at 715–750
 * MB; kept on Liftoff they peaked at 161, 200–242 and 214–218 MB (the API on Node 20: 181
 * against 242 MB). Reads are as fast; writes on Node 24 are 15–30 %
 * slower under 32 clients, still hundreds a second, which a home never asks for, where a 750 MB
 * peak is what gets a process killed on a 1 GB board (docs/performance.md). V8 reads the filter
 * each time a function would move up, so setting it at run time works, where `--liftoff-only`
 * only takes effect on the command line.
 */
export const WASM_TIER_UP_FILTER = 2_147_483_647;

/** Whether {@link keepHeapSmall} holds the young generation (so Hearth, not the owner, sizes it). */
let youngGenerationHeld = false;

/** Whether Node's command line or NODE_OPTIONS gives `flag`: then the setting is the owner's. */
function givenByOwner(flag: string, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const pattern = new RegExp(`(^|\\s)${flag}(=|\\s|$)`);
  return pattern.test(execArgv.join(" ")) || pattern.test(nodeOptions ?? "");
}

/**
 * True unless Node's command line or NODE_OPTIONS already sizes V8's young generation.
 * `hearth start` runs for months on boxes with 1 GB: by default the young generation grows to
 * 16 MB semi-spaces (two of them, plus the copies of what survives), which a home server's
 * request rate never needs. Measured: about 20 MB less RSS idle and 60–80 MB less under
 * load, for 10–20 % less throughput at 8 concurrent API clients and the same at 32
 * (docs/performance.md).
 */
export function shouldKeepYoungGenerationSmall(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return !givenByOwner("--max-semi-space-size", execArgv, nodeOptions);
}

/**
 * True unless Node's command line already sets how the old generation grows (Node refuses this
 * flag in NODE_OPTIONS, but a NODE_OPTIONS that names it is the owner's too).
 */
export function shouldKeepOldGenerationGrowthSmall(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): boolean {
  return !givenByOwner("--heap-growing-percent", execArgv, nodeOptions);
}

/**
 * True unless Node's command line or NODE_OPTIONS already says how V8 compiles WebAssembly (its
 * tiers, or Liftoff alone): then the owner chose.
 */
export function shouldKeepWasmOnBaselineCompiler(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): boolean {
  return [
    "--wasm-tier-up-filter",
    "--liftoff-only",
    "--liftoff",
    "--no-liftoff",
    "--wasm-tier-up",
    "--no-wasm-tier-up",
    "--wasm-dynamic-tiering",
    "--no-wasm-dynamic-tiering",
    "--wasm-tiering-budget",
  ].every((flag) => !givenByOwner(flag, execArgv, nodeOptions));
}

/**
 * Keeps V8's heap near what Hearth holds, for a process that runs for months on a small board:
 * the young generation at the size V8 starts it with (1 MB semi-spaces, as
 * `--max-semi-space-size=1` on the command line would), and the old generation's limit at
 * {@link OLD_GENERATION_GROWTH_PERCENT} past its live data. V8 reads both flags each time it
 * would grow a space, so setting them at run time works where size flags no longer do. It also
 * keeps WebAssembly (PGlite) on the baseline compiler ({@link WASM_TIER_UP_FILTER}). Called
 * before Hearth's modules load, since growth that already happened stays. Each is left alone
 * when Node's command line or NODE_OPTIONS sets it. Returns which it set.
 */
export function keepHeapSmall(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): { youngGeneration: boolean; oldGenerationGrowth: boolean; wasmBaselineOnly: boolean } {
  const youngGeneration = shouldKeepYoungGenerationSmall(execArgv, nodeOptions);
  if (youngGeneration) v8.setFlagsFromString("--semi-space-growth-factor=1");
  youngGenerationHeld = youngGeneration;
  const oldGenerationGrowth = shouldKeepOldGenerationGrowthSmall(execArgv, nodeOptions);
  if (oldGenerationGrowth) v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  const wasmBaselineOnly = shouldKeepWasmOnBaselineCompiler(execArgv, nodeOptions);
  if (wasmBaselineOnly) v8.setFlagsFromString(`--wasm-tier-up-filter=${WASM_TIER_UP_FILTER}`);
  return { youngGeneration, oldGenerationGrowth, wasmBaselineOnly };
}

/** The young generation's size (both semi-spaces), in bytes. */
export function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/**
 * Once Hearth has started, lets the young generation that {@link keepHeapSmall} held grow with
 * the load, to about `semiSpaceMb` semi-spaces. Starting stays at the small size (a start's
 * allocations would otherwise grow it at once, idle or not), and a home that never sees a burst
 * of requests keeps it there too. V8 takes no new maximum once the heap is set up, but it reads
 * the growth factor each time it would grow: after each collection, growth is allowed while the
 * young generation is below the size asked for and held once it is there. Node reports a
 * collection a turn or two of the event loop later, so under a burst V8 can grow it one step
 * further (to twice the size asked for) before it is held; V8 shrinks it again to what it uses.
 * Does nothing where the owner sized the young generation; returns whether it let it grow.
 */
export function letYoungGenerationGrow(semiSpaceMb: number = STARTED_SEMI_SPACE_MB): boolean {
  if (!youngGenerationHeld) return false;
  // Both semi-spaces count in the young generation's size.
  const limit = 2 * semiSpaceMb * 1_048_576;
  let growing = false;
  const allowGrowth = (allow: boolean) => {
    if (allow === growing) return;
    v8.setFlagsFromString(`--semi-space-growth-factor=${allow ? 2 : 1}`);
    growing = allow;
  };
  new PerformanceObserver(() => allowGrowth(youngGenerationBytes() < limit)).observe({ entryTypes: ["gc"] });
  allowGrowth(youngGenerationBytes() < limit);
  return true;
}
