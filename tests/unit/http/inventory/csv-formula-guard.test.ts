import { expect } from "chai";
import { neutraliseFormula, restoreFormula } from "../../../../src/adapters/http/inventory/csv-formula-guard.js";

describe("CSV formula guard", () => {
  it("puts a ' before every text a spreadsheet would run as a formula, and before nothing else", () => {
    for (const text of ["=1+2", "+cmd", "-2", "@SUM(A1)", "\tcalc", "\r=x", "'=x", "''@x"])
      expect(neutraliseFormula(text), JSON.stringify(text)).to.equal(`'${text}`);
    for (const text of ["", "Peas", "1-2", " =x", "'", "'plain", "2026-12-24T00:00:00.000Z", "é=x"])
      expect(neutraliseFormula(text), JSON.stringify(text)).to.equal(text);
  });

  it("reads every exported cell back to the text it stands for", () => {
    const alphabet = ["'", "=", "+", "-", "@", "\t", "\r", "a", " "];
    // Every text of up to four of these characters: the prefix rules meet each other here.
    let texts = [""];
    for (let length = 0; length < 4; length++)
      texts = [...texts, ...texts.flatMap((text) => alphabet.map((char) => text + char))];
    for (const text of new Set(texts)) {
      const cell = neutraliseFormula(text);
      expect(cell, JSON.stringify(text)).not.to.match(/^[=+\-@\t\r]/);
      expect(restoreFormula(cell), JSON.stringify(text)).to.equal(text);
    }
  });

  it("leaves cells from elsewhere alone unless they carry the export's prefix", () => {
    expect(restoreFormula("'plain")).to.equal("'plain");
    expect(restoreFormula("=1+2")).to.equal("=1+2");
    expect(restoreFormula("'=1+2")).to.equal("=1+2");
  });
});
