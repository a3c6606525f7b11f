import { expect } from "chai";
import {
  shouldKeepOldGenerationGrowthSmall,
  shouldKeepWasmOnBaselineCompiler,
  shouldKeepYoungGenerationSmall,
} from "../../../src/composition/small-heap.js";

describe("keeping V8's heap small", () => {
  it("keeps the young generation small when nothing on the command line or in NODE_OPTIONS sizes it", () => {
    expect(shouldKeepYoungGenerationSmall([], undefined)).to.equal(true);
    expect(shouldKeepYoungGenerationSmall(["--enable-source-maps"], "--max-old-space-size=512")).to.equal(true);
  });

  it("leaves the owner's young generation alone, however the flag is written", () => {
    expect(shouldKeepYoungGenerationSmall(["--max-semi-space-size=16"], undefined)).to.equal(false);
    expect(shouldKeepYoungGenerationSmall(["--max-semi-space-size", "16"], undefined)).to.equal(false);
    expect(shouldKeepYoungGenerationSmall([], "--inspect --max-semi-space-size=8")).to.equal(false);
  });

  it("does not take a similar flag for the young generation's", () => {
    expect(shouldKeepYoungGenerationSmall(["--max-semi-space-size-foo=1"], "--min-semi-space-size=1")).to.equal(true);
  });

  it("limits the old generation's growth unless the owner sets it, also beside a heap size", () => {
    expect(shouldKeepOldGenerationGrowthSmall([], undefined)).to.equal(true);
    expect(shouldKeepOldGenerationGrowthSmall(["--max-semi-space-size=1"], "--max-old-space-size=512")).to.equal(true);
    expect(shouldKeepOldGenerationGrowthSmall(["--heap-growing-percent=100"], undefined)).to.equal(false);
    expect(shouldKeepOldGenerationGrowthSmall([], "--heap-growing-percent 50")).to.equal(false);
  });

  it("keeps WebAssembly on the baseline compiler unless the owner says how V8 compiles it", () => {
    expect(shouldKeepWasmOnBaselineCompiler([], undefined)).to.equal(true);
    expect(shouldKeepWasmOnBaselineCompiler(["--max-semi-space-size=1"], "--max-old-space-size=512")).to.equal(true);
    for (const flag of [
      "--liftoff-only",
      "--wasm-tier-up-filter=-1",
      "--no-liftoff",
      "--no-wasm-dynamic-tiering",
      "--wasm-tiering-budget=1000",
    ]) {
      expect(shouldKeepWasmOnBaselineCompiler([flag], undefined), flag).to.equal(false);
    }
    expect(shouldKeepWasmOnBaselineCompiler([], "--stack-trace-limit=50 --liftoff-only")).to.equal(false);
  });
});
