import { isCuid } from "@paralleldrive/cuid2";
import { expect } from "chai";
import { Cuid2IdGenerator } from "../../../src/adapters/ids/cuid2-id-generator.js";

describe("Cuid2IdGenerator", () => {
  it("makes 24-character CUID2 ids that start with a lower-case letter", () => {
    const ids = new Cuid2IdGenerator();
    for (let n = 0; n < 2000; n += 1) {
      const id = ids.next();
      expect(id).to.match(/^[a-z][0-9a-z]{23}$/);
      expect(isCuid(id), id).to.equal(true);
    }
  });

  it("never repeats an id, within one generator or across two (the random pool refills on the way)", () => {
    const seen = new Set<string>();
    const first = new Cuid2IdGenerator();
    const second = new Cuid2IdGenerator();
    for (let n = 0; n < 20_000; n += 1) {
      seen.add(first.next());
      seen.add(second.next());
    }
    expect(seen.size).to.equal(40_000);
  });

  it("spreads the first letter over the whole alphabet", () => {
    const ids = new Cuid2IdGenerator();
    const letters = new Set(Array.from({ length: 5000 }, () => ids.next()[0]));
    expect(letters.size).to.equal(26);
  });
});
