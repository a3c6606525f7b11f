import { expect } from "chai";
import { loadOnce } from "../../../src/domain/shared/load-once.js";

describe("loadOnce", () => {
  it("loads on the first call only and shares the result with every caller", async () => {
    let loads = 0;
    const load = loadOnce(async () => ++loads);
    expect(loads).to.equal(0);
    expect(await Promise.all([load(), load()])).to.deep.equal([1, 1]);
    expect(await load()).to.equal(1);
    expect(loads).to.equal(1);
  });

  it("forgets a failed load, so the next call tries again", async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error("not installed");
      return "loaded";
    });
    try {
      await load();
      expect.fail("the first load should fail");
    } catch (error) {
      expect((error as Error).message).to.equal("not installed");
    }
    expect(await load()).to.equal("loaded");
    expect(loads).to.equal(2);
  });
});
