/**
 * The shopping list's rows of the route × caller table, and the seed they need (a checked
 * entry in the household, an entry of the other household). `../shopping-list-http.contract.ts`
 * holds the deeper behaviour and bad-input tests, on every adapter family.
 */
import request from "supertest";
import type { AccessRow } from "./access-table.js";
import type { InventoryWorld } from "./inventory-http-world.js";

const list = (w: InventoryWorld) => `/api/v1/households/${w.householdId}/shopping-list`;
const entry = (w: InventoryWorld) => `${list(w)}/${w.extra.shoppingEntryId}`;
const foreign = (w: InventoryWorld) => `${list(w)}/${w.extra.foreignShoppingEntryId}`;
const members = (status: number) => ({ anonymous: 401, outsider: 403, member: status, owner: status });

export async function seedShoppingList(w: InventoryWorld): Promise<void> {
  const mine = await request(w.app).post(list(w)).set(w.auth("owner")).send({ name: "Milk", checked: true });
  const theirs = await request(w.app)
    .post(`/api/v1/households/${w.other.householdId}/shopping-list`)
    .set(w.auth("stranger"))
    .send({ name: "Theirs" });
  if (mine.status !== 201 || theirs.status !== 201) throw new Error("seeding the shopping list failed");
  w.extra.shoppingEntryId = mine.body.id;
  w.extra.foreignShoppingEntryId = theirs.body.id;
}

export const shoppingListAccessRows: AccessRow[] = [
  { method: "get", route: "GET /households/:hid/shopping-list", path: list, expect: members(200) },
  {
    method: "post",
    route: "POST /households/:hid/shopping-list",
    path: list,
    body: () => ({ name: "Bread" }),
    expect: members(201),
  },
  {
    method: "post",
    route: "POST /households/:hid/shopping-list (fromItemId of another household)",
    path: list,
    body: (w) => ({ fromItemId: w.extra.foreignItemId }),
    expect: members(404),
  },
  {
    method: "post",
    route: "POST /households/:hid/shopping-list/checked/stock",
    path: (w) => `${list(w)}/checked/stock`,
    body: (w) => ({ freezerId: w.freezerId, compartmentId: w.compartmentId }),
    expect: members(201),
  },
  {
    method: "post",
    route: "POST /households/:hid/shopping-list/checked/stock (another household's freezer)",
    path: (w) => `${list(w)}/checked/stock`,
    body: (w) => ({ freezerId: w.other.freezerId, compartmentId: w.other.compartmentId }),
    expect: members(400),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/shopping-list/:eid",
    path: entry,
    body: () => ({ checked: false, position: 0 }),
    expect: members(200),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/shopping-list/:eid (another household's)",
    path: foreign,
    body: () => ({ checked: true }),
    expect: members(404),
  },
  { method: "delete", route: "DELETE /households/:hid/shopping-list/:eid", path: entry, expect: members(200) },
  {
    method: "delete",
    route: "DELETE /households/:hid/shopping-list/:eid (another household's)",
    path: foreign,
    expect: members(404),
  },
];
