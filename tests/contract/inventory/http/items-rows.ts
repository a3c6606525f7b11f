/**
 * The items area's rows in the shape of the shared route × caller and bad-input tables,
 * and the seed they need (an active and an archived item in a freezer of their own, and an
 * item of the other household). access-table.ts joins them into the one route table that
 * access-matrix.test.ts runs; it and items-bad-input.test.ts seed each world themselves: a
 * global world seeder would spend the request budget the rate-limit tests count.
 * `../items-http.contract.ts` holds the deeper item behaviour tests.
 */
import request from "supertest";
import type { AccessRow } from "./access-table.js";
import type { BodyRoute } from "./bad-input-table.js";
import type { InventoryWorld } from "./inventory-http-world.js";

const items = (w: InventoryWorld) => `/api/v1/households/${w.householdId}/items`;
const item = (w: InventoryWorld) => `${items(w)}/${w.extra.itemId}`;
const archived = (w: InventoryWorld) => `${items(w)}/${w.extra.archivedItemId}`;
const foreign = (w: InventoryWorld) => `${items(w)}/${w.extra.foreignItemId}`;

const members = (status: number) => ({ anonymous: 401, outsider: 403, member: status, owner: status });
const ownerOnly = (status: number) => ({ anonymous: 401, outsider: 403, member: 403, owner: status });

async function createItem(
  w: InventoryWorld,
  as: "owner" | "stranger",
  householdId: string,
  freezerId: string,
  compartmentId: string,
) {
  const response = await request(w.app)
    .post(`/api/v1/households/${householdId}/items`)
    .set(w.auth(as))
    .send({ name: "Chicken thighs", quantity: 2, freezerId, compartmentId });
  if (response.status !== 201) throw new Error(`item seed failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as string;
}

/** Adds the items of the rows below to a freshly built world. */
export async function seedItems(w: InventoryWorld): Promise<void> {
  // A freezer of their own, so the freezer rows still see an empty freezer to delete.
  const freezer = await request(w.app)
    .post(`/api/v1/households/${w.householdId}/freezers`)
    .set(w.auth("owner"))
    .send({ name: "Items" });
  const compartment = await request(w.app)
    .post(`/api/v1/households/${w.householdId}/freezers/${freezer.body.id}/compartments`)
    .set(w.auth("owner"))
    .send({ name: "Drawer" });
  w.extra.itemId = await createItem(w, "owner", w.householdId, freezer.body.id, compartment.body.id);
  w.extra.archivedItemId = await createItem(w, "owner", w.householdId, freezer.body.id, compartment.body.id);
  await request(w.app).delete(archived(w)).set(w.auth("owner"));
  w.extra.foreignItemId = await createItem(
    w,
    "stranger",
    w.other.householdId,
    w.other.freezerId,
    w.other.compartmentId,
  );
}

const itemBody = (w: InventoryWorld) => ({
  name: "Peas",
  quantity: 1,
  freezerId: w.freezerId,
  compartmentId: w.compartmentId,
});

export const itemAccessRows: AccessRow[] = [
  { method: "post", route: "POST /households/:hid/items", path: items, body: itemBody, expect: members(201) },
  {
    method: "post",
    route: "POST /households/:hid/items (another household's freezer)",
    path: items,
    body: (w) => ({ ...itemBody(w), freezerId: w.other.freezerId, compartmentId: w.other.compartmentId }),
    expect: members(400),
  },
  { method: "get", route: "GET /households/:hid/items", path: items, expect: members(200) },
  {
    method: "get",
    route: "GET /households/:hid/items/archive",
    path: (w) => `${items(w)}/archive`,
    expect: members(200),
  },
  { method: "get", route: "GET /households/:hid/items/:iid", path: item, expect: members(200) },
  { method: "get", route: "GET /households/:hid/items/:iid (archived)", path: archived, expect: members(200) },
  {
    method: "get",
    route: "GET /households/:hid/items/:iid (another household's)",
    path: foreign,
    expect: members(404),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/items/:iid",
    path: item,
    body: () => ({ quantity: 3 }),
    expect: members(200),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/items/:iid (archived)",
    path: archived,
    body: () => ({ quantity: 3 }),
    expect: members(409),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/items/:iid (another household's)",
    path: foreign,
    body: () => ({ quantity: 3 }),
    expect: members(404),
  },
  { method: "delete", route: "DELETE /households/:hid/items/:iid", path: item, expect: members(200) },
  { method: "delete", route: "DELETE /households/:hid/items/:iid (archived)", path: archived, expect: members(409) },
  {
    method: "delete",
    route: "DELETE /households/:hid/items/:iid (another household's)",
    path: foreign,
    expect: members(404),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/items/:iid/permanent (archived)",
    path: (w) => `${archived(w)}/permanent`,
    expect: ownerOnly(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/items/:iid/permanent (active)",
    path: (w) => `${item(w)}/permanent`,
    expect: ownerOnly(400),
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/restore",
    path: (w) => `${archived(w)}/restore`,
    expect: members(200),
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/restore (active)",
    path: (w) => `${item(w)}/restore`,
    expect: members(409),
  },
  {
    method: "get",
    route: "GET /households/:hid/items/:iid/history",
    path: (w) => `${item(w)}/history`,
    expect: members(200),
  },
  {
    method: "get",
    route: "GET /households/:hid/items/:iid/history (another household's)",
    path: (w) => `${foreign(w)}/history`,
    expect: members(404),
  },
  {
    method: "get",
    route: "GET /households/:hid/items/expiring",
    path: (w) => `${items(w)}/expiring?days=7`,
    expect: members(200),
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/consume",
    path: (w) => `${item(w)}/consume`,
    body: () => ({ quantity: 1 }),
    expect: members(200),
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/consume (more than is left)",
    path: (w) => `${item(w)}/consume`,
    body: () => ({ quantity: 3 }),
    expect: members(400),
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/consume (archived)",
    path: (w) => `${archived(w)}/consume`,
    body: () => ({ quantity: 1 }),
    expect: members(409),
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/consume (another household's)",
    path: (w) => `${foreign(w)}/consume`,
    body: () => ({ quantity: 1 }),
    expect: members(404),
  },
  {
    method: "get",
    route: "GET /households/:hid/reminders",
    path: (w) => `/api/v1/households/${w.householdId}/reminders`,
    expect: members(200),
  },
  {
    method: "put",
    route: "PUT /households/:hid/reminders",
    path: (w) => `/api/v1/households/${w.householdId}/reminders`,
    body: () => ({ enabled: true, daysAhead: 5, timeOfDay: "07:30", channel: "freezer" }),
    expect: ownerOnly(200),
  },
  {
    method: "get",
    route: "GET /households/:hid/export",
    path: (w) => `/api/v1/households/${w.householdId}/export?format=json`,
    expect: members(200),
  },
  {
    method: "post",
    route: "POST /households/:hid/import",
    path: (w) => `/api/v1/households/${w.householdId}/import`,
    body: () => ({ freezers: [], items: [] }),
    expect: ownerOnly(200),
  },
  {
    method: "post",
    route: "POST /households/:hid/import (invalid row)",
    path: (w) => `/api/v1/households/${w.householdId}/import`,
    body: () => ({ items: [{ id: "nothing" }] }),
    expect: ownerOnly(400),
  },
];

const long = (n: number) => "x".repeat(n);
export const itemBadBodies: BodyRoute[] = [
  {
    method: "post",
    route: "POST /households/:hid/items",
    path: items,
    bad: {
      "missing fields": {},
      "wrong types": { name: 1, quantity: "2", freezerId: 3, compartmentId: true },
      "zero quantity": { name: "Peas", quantity: 0, freezerId: "abcdefghij", compartmentId: "abcdefghij" },
      "overlong name": { name: long(201), quantity: 1, freezerId: "abcdefghij", compartmentId: "abcdefghij" },
      "overlong notes": {
        name: "Peas",
        quantity: 1,
        freezerId: "abcdefghij",
        compartmentId: "abcdefghij",
        notes: long(2001),
      },
      "malformed ids": { name: "Peas", quantity: 1, freezerId: "Not An Id", compartmentId: "../x" },
      "bad timestamp": {
        name: "Peas",
        quantity: 1,
        freezerId: "abcdefghij",
        compartmentId: "abcdefghij",
        expiresAt: "soon",
      },
      "unknown field": {
        name: "Peas",
        quantity: 1,
        freezerId: "abcdefghij",
        compartmentId: "abcdefghij",
        colour: "green",
      },
      "array body": [1, 2],
      "NUL character": {
        name: "Peas",
        quantity: 1,
        freezerId: "abcdefghij",
        compartmentId: "abcdefghij",
        notes: "\u0000",
      },
      "year 0": {
        name: "Peas",
        quantity: 1,
        freezerId: "abcdefghij",
        compartmentId: "abcdefghij",
        expiresAt: "0000-12-31",
      },
    },
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/items/:iid",
    path: item,
    bad: {
      "wrong types": { name: 1, quantity: "2" },
      "negative quantity": { quantity: -1 },
      "empty name": { name: "  " },
      "overlong name": { name: long(201) },
      "malformed id": { compartmentId: "NOT_AN_ID" },
      "bad timestamp": { storedAt: "31/12/2026" },
      "unknown field": { deletedAt: null },
      "NUL character": { name: "Pe\u0000as" },
      "offset into year 0": { storedAt: "0001-01-01T00:30:00+01:00" },
    },
  },
  {
    method: "post",
    route: "POST /households/:hid/items/:iid/consume",
    path: (w) => `${item(w)}/consume`,
    bad: {
      "missing quantity": {},
      "zero quantity": { quantity: 0 },
      "negative quantity": { quantity: -1 },
      "wrong type": { quantity: "1" },
      "more than is left": { quantity: 2.5 },
      "unknown field": { quantity: 1, reason: "dinner" },
    },
  },
  {
    method: "put",
    route: "PUT /households/:hid/reminders",
    path: (w) => `/api/v1/households/${w.householdId}/reminders`,
    bad: {
      "time of day out of range": { timeOfDay: "25:00" },
      "time of day without minutes": { timeOfDay: "18" },
      "negative days ahead": { daysAhead: -1 },
      "fractional days ahead": { daysAhead: 1.5 },
      "enabled as a string": { enabled: "yes" },
      "topic with a slash": { channel: "../admin" },
      "unknown field": { email: "a@example.com" },
      "array body": [true],
    },
  },
];
