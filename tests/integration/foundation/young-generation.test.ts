/**
 * `hearth start` keeps V8's young generation at its starting size unless the owner sizes it:
 * checked on the real V8 of this Node, in a process of its own, since the setting lasts for
 * the process.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "chai";

const MODULE = fileURLToPath(new URL("../../../src/composition/young-generation.ts", import.meta.url));

/** Allocates objects that survive a few scavenges (what makes V8 grow the young generation), then reports its size. */
const CHURN = `
import v8 from "node:v8";
const size = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size / 1048576;
const { keepYoungGenerationSmall } = await import(${JSON.stringify(MODULE)});
const applied = keepYoungGenerationSmall();
const before = size();
let kept = [];
for (let i = 0; i < 2_000_000; i++) {
  kept.push({ i, text: "item " + i });
  if (kept.length > 200_000) kept = [];
}
console.log(JSON.stringify({ applied, before, after: size() }));
`;

interface Sizes {
  applied: boolean;
  /** The young generation's size in MB when Hearth would start loading, and after the churn. */
  before: number;
  after: number;
}

function youngGeneration(nodeFlags: string[]): Sizes {
  const run = spawnSync(process.execPath, [...nodeFlags, "--import", "tsx", "--input-type=module", "--eval", CHURN], {
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as Sizes;
}

describe("the young generation of a Hearth process", function () {
  this.timeout(60_000);

  it("grows no further by default", () => {
    const { applied, before, after } = youngGeneration([]);
    expect(applied).to.equal(true);
    expect(after).to.be.at.most(before);
  });

  it("is the owner's when the command line sizes it", () => {
    const { applied, before, after } = youngGeneration(["--max-semi-space-size=8"]);
    expect(applied).to.equal(false);
    expect(after).to.be.greaterThan(before);
  });
});
