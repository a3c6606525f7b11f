import { expect } from "chai";
import type { ChangeLogEntry } from "../../../web/src/api.js";
import { historySentence } from "../../../web/src/history.js";

const AT = "2026-11-28T09:00:00.000Z";
const NOW = Date.parse(AT) + 60 * 60 * 1000;

function entry(fieldName: string, oldValue: string | null, newValue: string | null): ChangeLogEntry {
  return { fieldName, oldValue, newValue, changedAt: AT, changedBy: { id: "u1", name: "Anna" } } as ChangeLogEntry;
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
});
