import { expect } from "chai";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import { OpenFoodFactsLookup } from "../../../../src/adapters/services/open-food-facts/open-food-facts-lookup.js";
import { FakeOpenFoodFacts } from "../../../support/fake-open-food-facts.js";

describe("OpenFoodFactsLookup against a fake Open Food Facts", () => {
  let off: FakeOpenFoodFacts;
  let logger: MemoryLogger;
  const lookup = (options: { timeoutMs?: number; maxBytes?: number } = {}) =>
    new OpenFoodFactsLookup({ baseUrl: off.url, userAgent: "Hearth/test (tests)", logger, ...options });

  beforeEach(async () => {
    off = await FakeOpenFoodFacts.start();
    logger = new MemoryLogger();
    off.products.set("4006381333931", { product_name: "Fish fingers", product_name_de: "Fischstäbchen" });
  });
  afterEach(async () => {
    await off.close();
  });

  it("reads the product name of a known product and null for an unknown one", async () => {
    expect(await lookup().find("4006381333931")).to.deep.equal({ name: "Fish fingers" });
    expect(await lookup().find("96385074")).to.equal(null);
    expect(off.requests.map((request) => request.headers["user-agent"])).to.deep.equal([
      "Hearth/test (tests)",
      "Hearth/test (tests)",
    ]);
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    off.mode = "silent";
    expect(await lookup({ timeoutMs: 100 }).find("4006381333931")).to.equal(null);
    expect(logger.entries.some((entry) => entry.level === "warn")).to.equal(true);
  });

  it("stops reading a body past the bound", async () => {
    off.mode = "huge";
    expect(await lookup({ maxBytes: 4096 }).find("4006381333931")).to.equal(null);
  });

  it("cuts a very long name to an item name's 200 characters", async () => {
    off.products.set("96385074", { product_name: `${"Pizza ".repeat(100)}` });
    const found = await lookup().find("96385074");
    expect(found?.name.length).to.be.at.most(200);
    expect(found?.name.startsWith("Pizza Pizza")).to.equal(true);
  });
});
