/**
 * `hearth start` keeps V8's young generation at its starting size and the old generation's
 * limit near its live data unless the owner sets either: checked on the real V8 of this Node,
 * in a process of its own, since the settings last for the process.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "chai";

const MODULE = fileURLToPath(new URL("../../../src/composition/small-heap.ts", import.meta.url));

/** Allocates objects that survive a few scavenges (what makes V8 grow the young generation), then reports its size. */
const YOUNG_CHURN = `
import v8 from "node:v8";
const size = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size / 1048576;
const { keepHeapSmall } = await import(${JSON.stringify(MODULE)});
const applied = keepHeapSmall().youngGeneration;
const before = size();
let kept = [];
for (let i = 0; i < 2_000_000; i++) {
  kept.push({ i, text: "item " + i });
  if (kept.length > 200_000) kept = [];
}
console.log(JSON.stringify({ applied, before, after: size() }));
`;

/**
 * A started server under load: after \`letYoungGenerationGrow\`, requests' worth of objects that
 * live across a few turns of the event loop (as a request waiting for its database does), then
 * the young generation's size.
 */
const STARTED_LOAD = `
import v8 from "node:v8";
import { setImmediate as turn } from "node:timers/promises";
const size = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size / 1048576;
const { keepHeapSmall, letYoungGenerationGrow, STARTED_SEMI_SPACE_MB } = await import(${JSON.stringify(MODULE)});
keepHeapSmall();
const before = size();
const applied = letYoungGenerationGrow();
let inFlight = [];
for (let request = 0; request < 200_000; request++) {
  inFlight.push({ request, body: "item " + request, rows: [request, request + 1, request + 2] });
  if (inFlight.length > 20_000) inFlight = inFlight.slice(10_000);
  if (request % 500 === 0) await turn();
}
console.log(JSON.stringify({ applied, before, after: size(), cap: 2 * STARTED_SEMI_SPACE_MB }));
`;

/**
 * Holds about 40 MB for good and allocates garbage that lives through a few collections (a
 * busy server's requests), then reports the largest heap V8 reserved meanwhile.
 */
const OLD_CHURN = `
const { keepHeapSmall } = await import(${JSON.stringify(MODULE)});
const applied = keepHeapSmall().oldGenerationGrowth;
const live = [];
for (let i = 0; i < 300_000; i++) live.push({ i, text: "live item " + i, tags: [i, i + 1] });
let peak = 0;
let garbage = [];
for (let round = 0; round < 300; round++) {
  for (let i = 0; i < 20_000; i++) garbage.push({ round, i, text: "garbage " + i, more: new Array(8).fill(i) });
  if (garbage.length > 120_000) garbage = [];
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
console.log(JSON.stringify({ applied, peak: peak / 1048576, live: live.length }));
`;

function run<T>(script: string, nodeFlags: string[]): T {
  const child = spawnSync(
    process.execPath,
    [...nodeFlags, "--import", "tsx", "--input-type=module", "--eval", script],
    {
      encoding: "utf8",
      env: { ...process.env, NODE_OPTIONS: "" },
    },
  );
  expect(child.status, child.stderr).to.equal(0);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) as string) as T;
}

interface YoungSizes {
  applied: boolean;
  /** The young generation's size in MB when Hearth would start loading, and after the churn. */
  before: number;
  after: number;
}

interface OldPeak {
  applied: boolean;
  /** The largest heap (MB) V8 reserved during the churn. */
  peak: number;
}

describe("the heap of a Hearth process", function () {
  this.timeout(60_000);

  it("keeps its young generation from growing by default", () => {
    const { applied, before, after } = run<YoungSizes>(YOUNG_CHURN, []);
    expect(applied).to.equal(true);
    expect(after).to.be.at.most(before);
  });

  it("leaves the young generation to the owner when the command line sizes it", () => {
    const { applied, before, after } = run<YoungSizes>(YOUNG_CHURN, ["--max-semi-space-size=8"]);
    expect(applied).to.equal(false);
    expect(after).to.be.greaterThan(before);
  });

  it("lets the young generation grow under load once started, to its size and not far past it", () => {
    const { applied, before, after, cap } = run<YoungSizes & { cap: number }>(STARTED_LOAD, []);
    expect(applied).to.equal(true);
    expect(before).to.be.below(cap);
    // One growth step may land before Node reports the collection that reached the size.
    expect(after)
      .to.be.at.least(cap)
      .and.at.most(2 * cap);
  });

  it("leaves a young generation the owner sized alone once started too", () => {
    const { applied } = run<YoungSizes & { cap: number }>(STARTED_LOAD, ["--max-semi-space-size=16"]);
    expect(applied).to.equal(false);
  });

  it("reserves far less old generation under churn than V8's own growth, which the owner can ask for", () => {
    const small = run<OldPeak>(OLD_CHURN, ["--max-semi-space-size=1"]);
    const own = run<OldPeak>(OLD_CHURN, ["--max-semi-space-size=1", "--heap-growing-percent=0"]);
    expect(small.applied).to.equal(true);
    expect(own.applied).to.equal(false);
    expect(small.peak, `${small.peak} MB against ${own.peak} MB`).to.be.below(own.peak * 0.75);
  });
});
