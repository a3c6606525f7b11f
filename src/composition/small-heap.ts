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
 * Keeps V8's heap near what Hearth holds, for a process that runs for months on a small board:
 * the young generation at the size V8 starts it with (1 MB semi-spaces, as
 * `--max-semi-space-size=1` on the command line would), and the old generation's limit at
 * {@link OLD_GENERATION_GROWTH_PERCENT} past its live data. V8 reads both flags each time it
 * would grow a space, so setting them at run time works where size flags no longer do. Called
 * before Hearth's modules load, since growth that already happened stays. Each is left alone
 * when Node's command line or NODE_OPTIONS sets it. Returns which it set.
 */
export function keepHeapSmall(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): { youngGeneration: boolean; oldGenerationGrowth: boolean } {
  const youngGeneration = shouldKeepYoungGenerationSmall(execArgv, nodeOptions);
  if (youngGeneration) v8.setFlagsFromString("--semi-space-growth-factor=1");
  const oldGenerationGrowth = shouldKeepOldGenerationGrowthSmall(execArgv, nodeOptions);
  if (oldGenerationGrowth) v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
  return { youngGeneration, oldGenerationGrowth };
}
