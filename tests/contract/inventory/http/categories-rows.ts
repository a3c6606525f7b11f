import type { AccessRow } from "./access-table.js";
import type { InventoryWorld } from "./inventory-http-world.js";

/** A default category of a household (every household gets them when it is created). */
function categoryOf(w: InventoryWorld, householdId: string): string {
  for (const category of w.store.categories.values()) if (category.householdId === householdId) return category.id;
  throw new Error(`household ${householdId} has no category`);
}

const h = (w: InventoryWorld) => `/api/v1/households/${w.householdId}`;
const members = (status: number) => ({ anonymous: 401, outsider: 403, member: status, owner: status });
const ownerOnly = (status: number) => ({ anonymous: 401, outsider: 403, member: 403, owner: status });

/** The category routes: members read, only the owner writes; another household's category is 404. */
export const categoryAccessRows: AccessRow[] = [
  { method: "get", route: "GET /households/:hid/categories", path: (w) => `${h(w)}/categories`, expect: members(200) },
  {
    method: "post",
    route: "POST /households/:hid/categories",
    path: (w) => `${h(w)}/categories`,
    body: () => ({ name: "Soups" }),
    expect: ownerOnly(201),
  },
  {
    method: "post",
    route: "POST /households/:hid/categories (a name the household has)",
    path: (w) => `${h(w)}/categories`,
    body: () => ({ name: "meat" }),
    expect: ownerOnly(409),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/categories/:cid",
    path: (w) => `${h(w)}/categories/${categoryOf(w, w.householdId)}`,
    body: () => ({ name: "Game" }),
    expect: ownerOnly(200),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/categories/:cid (another household's)",
    path: (w) => `${h(w)}/categories/${categoryOf(w, w.other.householdId)}`,
    body: () => ({ name: "Game" }),
    expect: ownerOnly(404),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/categories/:cid",
    path: (w) => `${h(w)}/categories/${categoryOf(w, w.householdId)}`,
    expect: ownerOnly(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/categories/:cid (another household's)",
    path: (w) => `${h(w)}/categories/${categoryOf(w, w.other.householdId)}`,
    expect: ownerOnly(404),
  },
];
