import { expect } from "chai";
import { stringifyChangeValue } from "../../../../src/domain/inventory/change-log-entry.js";
import {
  applyItemPatch,
  type FreezerItem,
  nextChangeTime,
  searchTerms,
} from "../../../../src/domain/inventory/freezer-item.js";
import { searchWords } from "../../../../src/adapters/persistence/memory-search-words.js";

const base: FreezerItem = {
  id: "i1",
  householdId: "h1",
  freezerId: "f1",
  compartmentId: "c1",
  name: "Peas",
  quantity: 2,
  unit: "piece",
  categoryId: null,
  notes: null,
  storedAt: new Date("2026-01-01T00:00:00.000Z"),
  barcode: null,
  expiresAt: null,
  deletedAt: null,
  createdAt: new Date("2026-01-01T00:00:00.000Z"),
  updatedAt: new Date("2026-01-01T00:00:00.000Z"),
  createdById: "u1",
  updatedById: "u1",
};

describe("freezer item rules", () => {
  describe("stringifyChangeValue", () => {
    it("writes numbers in plain decimal, dates as ISO-8601 and null as null", () => {
      expect(stringifyChangeValue(2)).to.equal("2");
      expect(stringifyChangeValue(0.5)).to.equal("0.5");
      expect(stringifyChangeValue(1e21)).to.equal("1000000000000000000000");
      expect(stringifyChangeValue(1.5e-7)).to.equal("0.00000015");
      expect(stringifyChangeValue(new Date("2026-03-04T05:06:07.089Z"))).to.equal("2026-03-04T05:06:07.089Z");
      expect(stringifyChangeValue(null)).to.equal(null);
      expect(stringifyChangeValue("text")).to.equal("text");
    });
  });

  describe("applyItemPatch", () => {
    let n = 0;
    const change = (now = new Date("2026-02-01T00:00:00.000Z")) => ({ by: "u2", now, newId: () => `c${++n}` });

    it("records only fields that really changed, in field-name order, sharing one time", () => {
      const { item, changes } = applyItemPatch(
        base,
        { quantity: 3, name: "Peas", notes: "frozen", expiresAt: new Date("2026-06-01T00:00:00.000Z") },
        change(),
      );
      expect(changes.map((c) => [c.fieldName, c.oldValue, c.newValue])).to.deep.equal([
        ["expiresAt", null, "2026-06-01T00:00:00.000Z"],
        ["notes", null, "frozen"],
        ["quantity", "2", "3"],
      ]);
      expect(new Set(changes.map((c) => c.changedAt.toISOString()))).to.have.property("size", 1);
      expect(item).to.include({ quantity: 3, notes: "frozen", updatedById: "u2" });
      expect(item.updatedAt.toISOString()).to.equal("2026-02-01T00:00:00.000Z");
    });

    it("treats an equal timestamp as unchanged and null as a change", () => {
      const { changes } = applyItemPatch(
        base,
        { storedAt: new Date("2026-01-01T00:00:00.000Z"), expiresAt: null, notes: null },
        change(),
      );
      expect(changes).to.deep.equal([]);
      const cleared = applyItemPatch(base, { storedAt: null }, change());
      expect(cleared.changes[0]).to.include({
        fieldName: "storedAt",
        oldValue: "2026-01-01T00:00:00.000Z",
        newValue: null,
      });
    });

    it("leaves the item untouched when nothing changed", () => {
      const result = applyItemPatch(base, {}, change());
      expect(result.item).to.equal(base);
      expect(result.changes).to.deep.equal([]);
    });

    it("never dates a change at or before the previous one", () => {
      expect(nextChangeTime(new Date("2025-12-31T00:00:00.000Z"), base).toISOString()).to.equal(
        "2026-01-01T00:00:00.001Z",
      );
      expect(nextChangeTime(new Date("2026-01-01T00:00:00.000Z"), base).toISOString()).to.equal(
        "2026-01-01T00:00:00.001Z",
      );
    });
  });

  describe("searchWords", () => {
    it("folds accents and case and splits on anything but letters and digits", () => {
      expect(searchWords("Crème FRAÎCHE")).to.deep.equal(["creme", "fraiche"]);
      expect(searchWords("Ben's_cookies (100%)")).to.deep.equal(["ben", "s", "cookies", "100"]);
      expect(searchWords("Weißwurst & Smørrebrød")).to.deep.equal(["weisswurst", "smorrebrod"]);
      expect(searchWords("%_'\"")).to.deep.equal([]);
    });

    it("folds what unaccent folds and keeps the marks other scripts spell with", () => {
      expect(searchWords("ﬁsh ﬁngers, Ｆｕｌｌ cream ½")).to.deep.equal(["fish", "fingers", "full", "cream", "1", "2"]);
      expect(searchWords("Ёлка Ἄρτος İstanbul")).to.deep.equal(["елка", "αρτος", "istanbul"]);
      // Hangul, kana voicing marks, Devanagari vowel signs and й belong to their letters.
      expect(searchWords("김치찌개 がんもどき दाल Йогурт")).to.deep.equal(["김치찌개", "がんもどき", "दाल", "йогурт"]);
      expect(searchWords("oʼbrien")).to.deep.equal(["o", "brien"]);
    });
  });

  describe("searchTerms", () => {
    it("splits on anything but letters, digits and marks, without folding", () => {
      expect(searchTerms("Crème-fraîche & (dal)")).to.deep.equal(["Crème", "fraîche", "dal"]);
      expect(searchTerms("दाल:* | !x")).to.deep.equal(["दाल", "x"]);
      expect(searchTerms("%_'\"")).to.deep.equal([]);
    });
  });
});
