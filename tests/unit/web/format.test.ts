import { expect } from "chai";
import { parseDecimal } from "../../../web/src/format.js";

describe("web app: quantities as typed", () => {
  it("reads German thousands dots as the app writes them, and a lone dot or comma as a decimal", () => {
    expect(parseDecimal("1.000", "de-DE")).to.equal(1000);
    expect(parseDecimal("12.500", "de-DE")).to.equal(12500);
    expect(parseDecimal("1.250,5", "de-DE")).to.equal(1250.5);
    expect(parseDecimal("1.000.000", "de-DE")).to.equal(1000000);
    expect(parseDecimal("1,5", "de-DE")).to.equal(1.5);
    expect(parseDecimal("1.5", "de-DE")).to.equal(1.5);
    expect(parseDecimal("0.250", "de-DE")).to.equal(0.25);
    expect(parseDecimal("1.2345", "de-DE")).to.equal(1.2345);
    expect(parseDecimal(" 250 ", "de-DE")).to.equal(250);
    expect(parseDecimal("1.00", "de-DE")).to.equal(1);
  });

  it("reads English thousands commas as the app writes them, and keeps 1,5 one and a half", () => {
    expect(parseDecimal("1,000", "en-GB")).to.equal(1000);
    expect(parseDecimal("1,250.5", "en-GB")).to.equal(1250.5);
    expect(parseDecimal("1,5", "en-GB")).to.equal(1.5);
    expect(parseDecimal("0,250", "en-GB")).to.equal(0.25);
    expect(parseDecimal("1.000", "en-GB")).to.equal(1);
  });

  it("refuses what is no number, such as mixed or misplaced separators", () => {
    for (const typed of ["", "abc", "1.000,5.5", "1,000.5,5", "1..5", "1.", "-1", "1e3"]) {
      expect(parseDecimal(typed, "de-DE"), typed).to.be.NaN;
    }
    expect(parseDecimal("1.250,5", "en-GB")).to.be.NaN;
    expect(parseDecimal("1,250.5", "de-DE")).to.be.NaN;
  });
});
