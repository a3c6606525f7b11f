import { expect } from "chai";
import { formatAmount } from "../../../web/src/categories.js";

describe("web app: amounts with their unit", () => {
  // Outside a browser the catalogue is English.
  it("names one portion, bag or piece in the singular, and symbols alike for every amount", () => {
    expect(formatAmount(1, "portion")).to.equal("1 portion");
    expect(formatAmount(2, "portion")).to.equal("2 portions");
    expect(formatAmount(1, "bag")).to.equal("1 bag");
    expect(formatAmount(0.5, "bag")).to.equal("0.5 bags");
    expect(formatAmount(1, "piece")).to.equal("1 pc");
    expect(formatAmount(1, "kg")).to.equal("1 kg");
    expect(formatAmount(1.5, "kg")).to.equal("1.5 kg");
  });
});
