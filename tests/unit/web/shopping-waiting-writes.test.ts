import { expect } from "chai";
import type { ShoppingListEntry } from "../../../web/src/api.js";
import type { QueuedWrite } from "../../../web/src/offline.js";
import { withWaitingWrites } from "../../../web/src/shopping.js";

const HOUSEHOLD = "h1";

function entry(id: string, name: string, checked = false): ShoppingListEntry {
  return {
    id,
    householdId: HOUSEHOLD,
    name,
    quantity: 1,
    unit: "piece",
    categoryId: null,
    checked,
    position: 0,
    createdAt: "2026-11-28T10:00:00.000Z",
    updatedAt: "2026-11-28T10:00:00.000Z",
  };
}

const base = { householdId: HOUSEHOLD, status: "waiting" } as const;

describe("web app: the shopping list with the changes made offline", () => {
  const list = [entry("e1", "Milk"), entry("e2", "Bread", true), entry("e3", "Eggs")];

  it("shows ticks, removals and adds waiting on this device, in the order they were made", () => {
    const writes: QueuedWrite[] = [
      { ...base, id: 1, kind: "shoppingCheck", name: "Milk", entryId: "e1", checked: true },
      { ...base, id: 2, kind: "shoppingCheck", name: "Bread", entryId: "e2", checked: false },
      { ...base, id: 3, kind: "shoppingRemove", name: "Eggs", entryId: "e3" },
      { ...base, id: 4, kind: "shoppingAdd", name: "Butter", body: { name: "Butter", quantity: 2, unit: "bag" } },
    ];
    const shown = withWaitingWrites(list, writes, HOUSEHOLD);
    expect(shown.map((shownEntry) => [shownEntry.name, shownEntry.checked, shownEntry.waiting])).to.deep.equal([
      ["Milk", true, undefined],
      ["Bread", false, undefined],
      ["Butter", false, 4],
    ]);
    expect(shown[2]).to.include({ quantity: 2, unit: "bag", id: "waiting-4" });
    // The list as it came is left as it was.
    expect(list.map((listEntry) => listEntry.checked)).to.deep.equal([false, true, false]);
  });

  it("an add checked off before it was sent shows checked", () => {
    const writes: QueuedWrite[] = [
      {
        ...base,
        id: 7,
        kind: "shoppingAdd",
        name: "Peas",
        body: { name: "Peas", quantity: 1, unit: "piece", checked: true },
      },
    ];
    expect(withWaitingWrites([], writes, HOUSEHOLD).map((shownEntry) => shownEntry.checked)).to.deep.equal([true]);
  });

  it("leaves out refused writes, other households' writes and the item writes", () => {
    const writes: QueuedWrite[] = [
      { ...base, id: 1, kind: "shoppingCheck", name: "Milk", entryId: "e1", checked: true, status: "refused" },
      { ...base, id: 2, kind: "shoppingRemove", name: "Eggs", entryId: "e3", householdId: "h2" },
      { ...base, id: 3, kind: "add", name: "Ice", body: { name: "Ice" } },
      { ...base, id: 4, kind: "takeOut", name: "Milk", itemId: "e1", body: { quantity: 1 } },
    ];
    expect(withWaitingWrites(list, writes, HOUSEHOLD)).to.deep.equal(list);
  });
});
