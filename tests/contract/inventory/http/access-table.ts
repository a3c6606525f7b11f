import type { Caller, InventoryWorld } from "./inventory-http-world.js";
import { itemAccessRows } from "./items-rows.js";
import { barcodeAccessRows } from "./barcode-rows.js";
import { shoppingListAccessRows } from "./shopping-list-rows.js";
import { categoryAccessRows } from "./categories-rows.js";
import { photoAccessRows } from "./photo-rows.js";
import { pushAccessRows } from "./push-rows.js";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** Expected status per caller. */
export type Expectation = Record<Caller, number>;

/**
 * One route of the access matrix: who gets which status. Every row × caller runs
 * against a fresh world, so destructive routes cannot disturb each other.
 */
export interface AccessRow {
  method: Method;
  /** Route as documented (for the test title). */
  route: string;
  path(world: InventoryWorld): string;
  body?(world: InventoryWorld, caller: Caller): unknown;
  /** Extra request headers (the web app's cookie routes need X-Hearth-Client). */
  headers?: Record<string, string>;
  expect: Expectation;
  /**
   * An endless response (the event stream): only its refusals run here; its 200s are read with
   * fetch() in tests/integration/inventory/household-events.test.ts.
   */
  stream?: true;
}

const all = (status: number): Expectation => ({ anonymous: status, outsider: status, member: status, owner: status });
/** Signed-in users all get `status`; anonymous 401. */
const signedIn = (status: number): Expectation => ({ anonymous: 401, outsider: status, member: status, owner: status });
/** Household members get `status`; outsiders 403. */
const members = (status: number): Expectation => ({ anonymous: 401, outsider: 403, member: status, owner: status });
/**
 * Only the installation's admin gets `status`: the world registers the owner first, so the
 * owner is also the admin and the others (member, outsider) are plain accounts.
 */
const adminOnly = (status: number): Expectation => ({ anonymous: 401, outsider: 403, member: 403, owner: status });
/** Only the owner gets `status`. */
const ownerOnly = (status: number): Expectation => ({ anonymous: 401, outsider: 403, member: 403, owner: status });

const h = (w: InventoryWorld) => `/api/v1/households/${w.householdId}`;
/** The header the web app's cookie routes require (CSRF protection). */
const WEB_APP = { "X-Hearth-Client": "web" };
const f = (w: InventoryWorld) => `${h(w)}/freezers/${w.freezerId}`;
const c = (w: InventoryWorld) => `${f(w)}/compartments/${w.compartmentId}`;

/** The routes of accounts, households, members, invites, freezers and compartments. Other areas push their rows. */
export const accessTable: AccessRow[] = [
  { method: "get", route: "GET /health", path: () => "/api/v1/health", expect: all(200) },
  {
    method: "get",
    route: "GET /households/:hid/events",
    path: (w) => `${h(w)}/events`,
    expect: members(200),
    stream: true,
  },
  { method: "get", route: "GET /openapi.json", path: () => "/api/v1/openapi.json", expect: all(200) },
  { method: "get", route: "GET /api/docs (Swagger UI)", path: () => "/api/docs/", expect: all(200) },
  {
    method: "post",
    route: "POST /auth/register",
    path: () => "/api/v1/auth/register",
    body: (_w, caller) => ({ email: `new-${caller}@example.com`, password: "password123", name: "New" }),
    expect: all(201),
  },
  {
    method: "post",
    route: "POST /auth/login",
    path: () => "/api/v1/auth/login",
    body: (w) => ({ email: w.users.member.email, password: "correct horse battery" }),
    expect: all(200),
  },
  {
    method: "post",
    route: "POST /auth/refresh",
    path: () => "/api/v1/auth/refresh",
    body: (w) => ({ refreshToken: w.users.member.refreshToken }),
    expect: all(200),
  },
  {
    method: "post",
    route: "POST /auth/logout",
    path: () => "/api/v1/auth/logout",
    body: (w) => ({ refreshToken: w.users.member.refreshToken }),
    expect: all(200),
  },
  {
    method: "post",
    route: "POST /auth/web/register",
    path: () => "/api/v1/auth/web/register",
    headers: WEB_APP,
    body: (_w, caller) => ({ email: `web-${caller}@example.com`, password: "password123", name: "New" }),
    expect: all(201),
  },
  {
    method: "post",
    route: "POST /auth/web/login",
    path: () => "/api/v1/auth/web/login",
    headers: WEB_APP,
    body: (w) => ({ email: w.users.member.email, password: "correct horse battery" }),
    expect: all(200),
  },
  // Without the refresh cookie there is no session to refresh.
  {
    method: "post",
    route: "POST /auth/web/refresh",
    path: () => "/api/v1/auth/web/refresh",
    headers: WEB_APP,
    expect: all(401),
  },
  {
    method: "post",
    route: "POST /auth/web/logout",
    path: () => "/api/v1/auth/web/logout",
    headers: WEB_APP,
    expect: all(200),
  },
  { method: "post", route: "POST /auth/logout-all", path: () => "/api/v1/auth/logout-all", expect: signedIn(200) },
  {
    method: "post",
    route: "POST /users/me/password",
    path: () => "/api/v1/users/me/password",
    body: () => ({ currentPassword: "correct horse battery", newPassword: "a new passphrase" }),
    expect: signedIn(200),
  },
  { method: "get", route: "GET /users/me", path: () => "/api/v1/users/me", expect: signedIn(200) },
  {
    method: "patch",
    route: "PATCH /users/me",
    path: () => "/api/v1/users/me",
    body: () => ({ name: "Renamed" }),
    expect: signedIn(200),
  },
  {
    method: "delete",
    route: "DELETE /users/me",
    path: () => "/api/v1/users/me",
    expect: { anonymous: 401, outsider: 200, member: 200, owner: 409 },
  },
  { method: "get", route: "GET /admin/users", path: () => "/api/v1/admin/users", expect: adminOnly(200) },
  {
    method: "put",
    route: "PUT /admin/admins/:userId",
    path: (w) => `/api/v1/admin/admins/${w.users.member.id}`,
    expect: adminOnly(200),
  },
  {
    method: "delete",
    route: "DELETE /admin/admins/:userId",
    path: (w) => `/api/v1/admin/admins/${w.users.member.id}`,
    expect: adminOnly(200),
  },
  {
    method: "post",
    route: "POST /households",
    path: () => "/api/v1/households",
    body: () => ({ name: "New home" }),
    expect: signedIn(201),
  },
  { method: "get", route: "GET /households", path: () => "/api/v1/households", expect: signedIn(200) },
  { method: "get", route: "GET /households/:hid", path: h, expect: members(200) },
  { method: "patch", route: "PATCH /households/:hid", path: h, body: () => ({ name: "Flat" }), expect: ownerOnly(200) },
  { method: "delete", route: "DELETE /households/:hid", path: h, expect: ownerOnly(200) },
  {
    method: "delete",
    route: "DELETE /households/:hid/members/:uid (a member)",
    path: (w) => `${h(w)}/members/${w.users.member.id}`,
    expect: ownerOnly(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/members/:uid (the owner)",
    path: (w) => `${h(w)}/members/${w.users.owner.id}`,
    expect: ownerOnly(400),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/members/:uid (not a member)",
    path: (w) => `${h(w)}/members/${w.users.stranger.id}`,
    expect: ownerOnly(404),
  },
  {
    method: "post",
    route: "POST /households/:hid/leave",
    path: (w) => `${h(w)}/leave`,
    expect: { anonymous: 401, outsider: 403, member: 200, owner: 400 },
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/transfer",
    path: (w) => `${h(w)}/transfer`,
    body: (w) => ({ newOwnerId: w.users.member.id }),
    expect: ownerOnly(200),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/transfer (to a non-member)",
    path: (w) => `${h(w)}/transfer`,
    body: (w) => ({ newOwnerId: w.users.stranger.id }),
    expect: ownerOnly(400),
  },
  { method: "post", route: "POST /households/:hid/invites", path: (w) => `${h(w)}/invites`, expect: ownerOnly(201) },
  { method: "get", route: "GET /households/:hid/invites", path: (w) => `${h(w)}/invites`, expect: ownerOnly(200) },
  {
    method: "delete",
    route: "DELETE /households/:hid/invites/:inviteId",
    path: (w) => `${h(w)}/invites/${w.inviteId}`,
    expect: ownerOnly(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/invites/:inviteId (another household's)",
    path: (w) => `${h(w)}/invites/${w.other.inviteId}`,
    expect: ownerOnly(404),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/invites/:inviteId (unknown)",
    path: (w) => `${h(w)}/invites/zzzzzzzzzzzzzzzzzzzzzzzz`,
    expect: ownerOnly(404),
  },
  {
    method: "post",
    route: "POST /invites/accept",
    path: () => "/api/v1/invites/accept",
    body: (w) => ({ code: w.inviteCode }),
    expect: { anonymous: 401, outsider: 200, member: 409, owner: 409 },
  },
  {
    method: "post",
    route: "POST /invites/accept (unknown code)",
    path: () => "/api/v1/invites/accept",
    body: () => ({ code: "no-such-code" }),
    expect: signedIn(404),
  },
  {
    method: "post",
    route: "POST /households/:hid/invites/accept (hid ignored)",
    path: (w) => `/api/v1/households/${w.other.householdId}/invites/accept`,
    body: (w) => ({ code: w.inviteCode }),
    expect: { anonymous: 401, outsider: 200, member: 409, owner: 409 },
  },
  {
    method: "post",
    route: "POST /households/:hid/freezers",
    path: (w) => `${h(w)}/freezers`,
    body: () => ({ name: "Upright", description: "garage" }),
    expect: members(201),
  },
  { method: "get", route: "GET /households/:hid/freezers", path: (w) => `${h(w)}/freezers`, expect: members(200) },
  { method: "get", route: "GET /households/:hid/freezers/:fid", path: f, expect: members(200) },
  {
    method: "get",
    route: "GET /households/:hid/freezers/:fid (another household's)",
    path: (w) => `${h(w)}/freezers/${w.other.freezerId}`,
    expect: members(404),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/freezers/:fid",
    path: f,
    body: () => ({ name: "Big" }),
    expect: members(200),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/freezers/:fid (another household's)",
    path: (w) => `${h(w)}/freezers/${w.other.freezerId}`,
    body: () => ({ name: "Big" }),
    expect: members(404),
  },
  { method: "delete", route: "DELETE /households/:hid/freezers/:fid", path: f, expect: ownerOnly(200) },
  {
    method: "delete",
    route: "DELETE /households/:hid/freezers/:fid (another household's)",
    path: (w) => `${h(w)}/freezers/${w.other.freezerId}`,
    expect: ownerOnly(404),
  },
  {
    method: "post",
    route: "POST /households/:hid/freezers/:fid/compartments",
    path: (w) => `${f(w)}/compartments`,
    body: () => ({ name: "Drawer", position: 2 }),
    expect: members(201),
  },
  {
    method: "get",
    route: "GET /households/:hid/freezers/:fid/compartments",
    path: (w) => `${f(w)}/compartments`,
    expect: members(200),
  },
  { method: "get", route: "GET /households/:hid/freezers/:fid/compartments/:cid", path: c, expect: members(200) },
  {
    method: "get",
    route: "GET /households/:hid/freezers/:fid/compartments/:cid (another household's)",
    path: (w) => `${f(w)}/compartments/${w.other.compartmentId}`,
    expect: members(404),
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/freezers/:fid/compartments/:cid",
    path: c,
    body: () => ({ position: 4 }),
    expect: members(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/freezers/:fid/compartments/:cid",
    path: c,
    expect: ownerOnly(200),
  },
  {
    method: "delete",
    route: "DELETE /households/:hid/freezers/:fid/compartments/:cid (another freezer's)",
    path: (w) => `${f(w)}/compartments/${w.other.compartmentId}`,
    expect: ownerOnly(404),
  },
  {
    method: "get",
    route: "GET /households/:hid (household that does not exist)",
    path: () => "/api/v1/households/zzzzzzzzzzzzzzzzzzzzzzzz",
    expect: { anonymous: 401, outsider: 403, member: 403, owner: 403 },
  },
];

/**
 * Every route of the API, the one table the route × caller matrix is generated from: the
 * rows above plus the items area's (which need the items `seedItems` adds to a world) and the
 * shopping list's (which need `seedShoppingList`).
 */
export const routeAccessTable: AccessRow[] = [
  ...accessTable,
  ...itemAccessRows,
  ...barcodeAccessRows,
  ...shoppingListAccessRows,
  ...categoryAccessRows,
  ...photoAccessRows,
  ...pushAccessRows,
];
