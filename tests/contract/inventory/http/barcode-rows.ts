/** The barcode routes' rows in the shared route × caller and bad-input tables. */
import type { AccessRow } from "./access-table.js";
import type { BodyRoute } from "./bad-input-table.js";
import type { InventoryWorld } from "./inventory-http-world.js";

const code = (w: InventoryWorld, value = "4006381333931") => `/api/v1/households/${w.householdId}/barcodes/${value}`;
const members = (status: number) => ({ anonymous: 401, outsider: 403, member: status, owner: status });

export const barcodeAccessRows: AccessRow[] = [
  // Nothing remembered in a fresh world, and no product lookup configured.
  { method: "get", route: "GET /households/:hid/barcodes/:code", path: (w) => code(w), expect: members(404) },
  {
    method: "put",
    route: "PUT /households/:hid/barcodes/:code",
    path: (w) => code(w),
    body: () => ({ name: "Fish fingers", unit: "piece" }),
    expect: members(200),
  },
  {
    method: "get",
    route: "GET /households/:hid/barcodes/:code (wrong check digit)",
    path: (w) => code(w, "4006381333932"),
    // A malformed code in the path is a 400 for anyone, as a malformed id is: it names nothing.
    expect: { anonymous: 401, outsider: 400, member: 400, owner: 400 },
  },
];

export const barcodeBadBodies: BodyRoute[] = [
  {
    method: "put",
    route: "PUT /households/:hid/barcodes/:code",
    path: (w) => code(w),
    bad: {
      "missing name": {},
      "empty name": { name: "  " },
      "overlong name": { name: "x".repeat(201) },
      "unknown unit": { name: "Fish", unit: "litre" },
      "category that is not an id": { name: "Fish", categoryId: "Fish & meat" },
      "unknown field": { name: "Fish", code: "4006381333931" },
      "array body": [1, 2],
      "NUL character": { name: "Fish\u0000" },
    },
  },
];
