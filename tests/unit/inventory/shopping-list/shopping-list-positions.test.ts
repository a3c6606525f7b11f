import { expect } from "chai";
import {
  inListOrder,
  placeEntry,
  renumber,
  type ShoppingListEntry,
} from "../../../../src/domain/inventory/shopping-list.js";

const at = new Date("2026-11-26T00:00:00Z");
const entry = (id: string, position: number): ShoppingListEntry => ({
  id,
  householdId: "household01",
  name: id,
  quantity: 1,
  unit: "piece",
  categoryId: null,
  checked: false,
  position,
  createdAt: at,
  updatedAt: at,
  createdById: "user0001",
  updatedById: "user0001",
});
const list = ["a", "b", "c", "d"].map((id, index) => entry(id, index));
const order = (entries: ShoppingListEntry[]) => entries.map((e) => `${e.id}${e.position}`).join(" ");

describe("shopping list positions", () => {
  it("a new entry goes to the bottom by default, or to its place, shifting the rest down", () => {
    expect(order(placeEntry(list, entry("x", 0), undefined))).to.equal("a0 b1 c2 d3 x4");
    expect(order(placeEntry(list, entry("x", 0), 1))).to.equal("a0 x1 b2 c3 d4");
    expect(order(placeEntry(list, entry("x", 0), 0))).to.equal("x0 a1 b2 c3 d4");
  });

  it("a move shifts only the entries between the old and the new place; past the end is the bottom", () => {
    expect(order(placeEntry(list, list[0]!, 2))).to.equal("b0 c1 a2 d3");
    expect(order(placeEntry(list, list[3]!, 1))).to.equal("a0 d1 b2 c3");
    expect(order(placeEntry(list, list[1]!, 99))).to.equal("a0 c1 d2 b3");
    expect(order(placeEntry(list, list[2]!, -3))).to.equal("c0 a1 b2 d3");
  });

  it("leaves untouched entries as the same objects, so only moved ones are written", () => {
    const next = placeEntry(list, list[3]!, 2);
    expect(next[0]).to.equal(list[0]);
    expect(next[1]).to.equal(list[1]);
    expect(next[2]).to.not.equal(list[3]);
  });

  it("reads a list with gaps or ties in a stable order and renumbers it densely", () => {
    const messy = [entry("c", 7), entry("b", 3), entry("a", 3)];
    expect(order(renumber(inListOrder(messy)))).to.equal("a0 b1 c2");
  });
});
