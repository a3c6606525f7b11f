/**
 * The item photo routes in the shape of the shared route × caller table (access-table.ts
 * joins them in); they use the items `seedItems` adds. The deeper photo behaviour is in
 * `../item-photos-http.contract.ts`.
 */
import { phonePhoto } from "../../../support/test-photos.js";
import type { AccessRow } from "./access-table.js";
import type { InventoryWorld } from "./inventory-http-world.js";

const JPEG = await phonePhoto(16, 8);
const IMAGE = { "Content-Type": "image/jpeg" };

const photo = (w: InventoryWorld, key: "itemId" | "archivedItemId" | "foreignItemId") =>
  `/api/v1/households/${w.householdId}/items/${w.extra[key]}/photo`;
const members = (status: number) => ({ anonymous: 401, outsider: 403, member: status, owner: status });

export const photoAccessRows: AccessRow[] = [
  {
    method: "put",
    route: "PUT /households/:hid/items/:iid/photo",
    path: (w) => photo(w, "itemId"),
    headers: IMAGE,
    body: () => JPEG,
    expect: members(200),
  },
  {
    method: "put",
    route: "PUT /households/:hid/items/:iid/photo (archived)",
    path: (w) => photo(w, "archivedItemId"),
    headers: IMAGE,
    body: () => JPEG,
    expect: members(409),
  },
  {
    method: "put",
    route: "PUT /households/:hid/items/:iid/photo (another household's item)",
    path: (w) => photo(w, "foreignItemId"),
    headers: IMAGE,
    body: () => JPEG,
    expect: members(404),
  },
  {
    method: "get",
    route: "GET /households/:hid/items/:iid/photo (no photo)",
    path: (w) => photo(w, "itemId"),
    expect: members(404),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/items/:iid/photo",
    path: (w) => photo(w, "itemId"),
    expect: members(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/items/:iid/photo (archived)",
    path: (w) => photo(w, "archivedItemId"),
    expect: members(409),
  },
];
