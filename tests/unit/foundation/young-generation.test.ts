import { expect } from "chai";
import { shouldKeepYoungGenerationSmall } from "../../../src/composition/young-generation.js";

describe("keeping V8's young generation small", () => {
  it("does so when nothing on the command line or in NODE_OPTIONS sizes it", () => {
    expect(shouldKeepYoungGenerationSmall([], undefined)).to.equal(true);
    expect(shouldKeepYoungGenerationSmall(["--enable-source-maps"], "--max-old-space-size=512")).to.equal(true);
  });

  it("leaves the owner's size alone, however it is written", () => {
    expect(shouldKeepYoungGenerationSmall(["--max-semi-space-size=16"], undefined)).to.equal(false);
    expect(shouldKeepYoungGenerationSmall(["--max-semi-space-size", "16"], undefined)).to.equal(false);
    expect(shouldKeepYoungGenerationSmall([], "--inspect --max-semi-space-size=8")).to.equal(false);
  });

  it("does not take a similar flag for it", () => {
    expect(shouldKeepYoungGenerationSmall(["--max-semi-space-size-foo=1"], "--min-semi-space-size=1")).to.equal(true);
  });
});
