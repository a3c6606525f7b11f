import { expect } from "chai";
import type { ChangeLogEntry } from "../../../web/src/api.js";
import { historySentence, unitsOfEntries } from "../../../web/src/history.js";

const AT = "2026-11-28T09:00:00.000Z";
const NOW = Date.parse(AT) + 60 * 60 * 1000;

function entry(
  fieldName: string,
  oldValue: string | null,
  newValue: string | null,
  changedAt: string = AT,
): ChangeLogEntry {
  const id = `${fieldName}-${changedAt}`;
  return { id, fieldName, oldValue, newValue, changedAt, changedBy: { id: "u1", name: "Anna" } } as ChangeLogEntry;
}

describe("web app: history sentences", () => {
  // Outside a browser the catalogue is English.
  it("says a field that may be empty was added or removed, not changed from or to “nothing”", () => {
    expect(historySentence(entry("notes", "Irish butter", null), NOW)).to.equal("Anna removed the notes, 1 hour ago");
    expect(historySentence(entry("notes", "", "from the farm"), NOW)).to.equal(
      "Anna added the notes “from the farm”, 1 hour ago",
    );
    expect(historySentence(entry("notes", "salted", "unsalted"), NOW)).to.equal(
      "Anna changed the notes from “salted” to “unsalted”, 1 hour ago",
    );
    expect(historySentence(entry("barcode", "4006381333931", null), NOW)).to.equal(
      "Anna removed the barcode, 1 hour ago",
    );
    expect(historySentence(entry("expiresAt", null, "2027-01-31"), NOW)).to.match(
      /^Anna set the best-before date to .*2027.*, 1 hour ago$/,
    );
  });

  it("names the frozen-on date as the form does", () => {
    expect(historySentence(entry("storedAt", "2026-11-01", "2026-11-02"), NOW)).to.match(
      /^Anna changed the frozen-on date from /,
    );
  });

  it("gives quantities the unit the item had then, walked back through unit changes", () => {
    const hour = (n: number) => new Date(Date.parse(AT) - n * 60 * 60 * 1000).toISOString();
    // Newest first, as the API lists them: 1 kg → 0.75 kg; the unit went from g to kg together
    // with 1500 → 1; before that 2000 g → 1500 g; and pieces at the start.
    const history = [
      entry("quantity", "1", "0.75", hour(0)),
      entry("quantity", "1500", "1", hour(1)),
      entry("unit", "g", "kg", hour(1)),
      entry("quantity", "2000", "1500", hour(2)),
      entry("unit", "piece", "g", hour(3)),
      entry("quantity", "3", "2", hour(4)),
    ];
    const units = unitsOfEntries(history, "kg");
    const sentences = history
      .filter((change) => change.fieldName === "quantity")
      .map((change) => historySentence(change, NOW, units.get(change.id)).replace(/, \d+ hours? ago$/, ""));
    expect(sentences).to.deep.equal([
      "Anna changed the quantity from 1 kg to 0.75 kg",
      "Anna changed the quantity from 1,500 g to 1 kg",
      "Anna changed the quantity from 2,000 g to 1,500 g",
      "Anna changed the quantity from 3 to 2",
    ]);
  });
});
