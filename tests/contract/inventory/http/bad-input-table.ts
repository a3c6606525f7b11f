import type { Method } from "./access-table.js";
import type { InventoryWorld } from "./inventory-http-world.js";

export interface BodyRoute {
  method: Method;
  route: string;
  path(world: InventoryWorld): string;
  /** Bodies that must each be refused with 400 and details. */
  bad: Record<string, unknown>;
  /** Extra request headers (the web app's cookie routes need X-Hearth-Client). */
  headers?: Record<string, string>;
}

const long = (n: number) => "x".repeat(n);
const h = (w: InventoryWorld) => `/api/v1/households/${w.householdId}`;
const f = (w: InventoryWorld) => `${h(w)}/freezers/${w.freezerId}`;

/** Every route with a body, and what is wrong with it. Other areas push their rows. */
export const badBodies: BodyRoute[] = [
  {
    method: "post",
    route: "POST /auth/register",
    path: () => "/api/v1/auth/register",
    bad: {
      "missing fields": {},
      "wrong types": { email: 1, password: true, name: [] },
      "invalid email": { email: "not-an-email", password: "password123", name: "A" },
      "short password": { email: "a@example.com", password: "short", name: "A" },
      "overlong password": { email: "a@example.com", password: long(129), name: "A" },
      "overlong name": { email: "a@example.com", password: "password123", name: long(101) },
      "empty name": { email: "a@example.com", password: "password123", name: "  " },
      "unknown field": { email: "a@example.com", password: "password123", name: "A", admin: true },
      "array body": [1, 2],
      "NUL character": { email: "a@example.com", password: "password123", name: "A\u0000" },
      "email of the domain kept for deleted accounts": {
        email: "deleted+abcdefghij@deleted.invalid",
        password: "password123",
        name: "A",
      },
    },
  },
  {
    method: "post",
    route: "POST /auth/login",
    path: () => "/api/v1/auth/login",
    bad: {
      "missing fields": {},
      "wrong types": { email: 5, password: 5 },
      "overlong email": { email: long(300), password: "x" },
      "unknown field": { email: "a@example.com", password: "x", remember: true },
      "NUL character": { email: "a\u0000@example.com", password: "x" },
    },
  },
  {
    method: "post",
    route: "POST /auth/refresh",
    path: () => "/api/v1/auth/refresh",
    bad: {
      "missing field": {},
      "wrong type": { refreshToken: 1 },
      overlong: { refreshToken: long(600) },
      "unknown field": { refreshToken: "x", y: 1 },
    },
  },
  {
    method: "post",
    route: "POST /auth/logout",
    path: () => "/api/v1/auth/logout",
    bad: { "missing field": {}, "wrong type": { refreshToken: null }, "unknown field": { refreshToken: "x", y: 1 } },
  },
  {
    method: "patch",
    route: "PATCH /users/me",
    path: () => "/api/v1/users/me",
    bad: {
      "wrong type": { name: 1 },
      overlong: { name: long(101) },
      "unknown field": { role: "admin" },
      "invalid email": { email: "not-an-email" },
      "email of the domain kept for deleted accounts": { email: "deleted+abcdefghij@deleted.invalid" },
    },
  },
  {
    method: "post",
    route: "POST /users/me/password",
    path: () => "/api/v1/users/me/password",
    bad: {
      "missing fields": {},
      "wrong types": { currentPassword: 1, newPassword: false },
      "short new password": { currentPassword: "correct horse battery", newPassword: "short" },
      "overlong new password": { currentPassword: "correct horse battery", newPassword: long(129) },
      "unknown field": { currentPassword: "correct horse battery", newPassword: "password123", admin: true },
      "wrong current password": { currentPassword: "not the password", newPassword: "password123" },
    },
  },
  {
    method: "post",
    route: "POST /auth/web/register",
    path: () => "/api/v1/auth/web/register",
    headers: { "X-Hearth-Client": "web" },
    bad: {
      "missing fields": {},
      "short password": { email: "a@example.com", password: "short", name: "A" },
      "unknown field": { email: "a@example.com", password: "password123", name: "A", admin: true },
    },
  },
  {
    method: "post",
    route: "POST /auth/web/login",
    path: () => "/api/v1/auth/web/login",
    headers: { "X-Hearth-Client": "web" },
    bad: {
      "missing fields": {},
      "wrong types": { email: 5, password: 5 },
      "unknown field": { email: "a@example.com", password: "x", remember: true },
    },
  },
  {
    method: "post",
    route: "POST /households",
    path: () => "/api/v1/households",
    bad: {
      "missing name": {},
      "wrong type": { name: 3 },
      overlong: { name: long(101) },
      empty: { name: "" },
      "unknown field": { name: "A", ownerId: "x" },
      "NUL character": { name: "Home\u0000" },
    },
  },
  {
    method: "patch",
    route: "PATCH /households/:hid",
    path: h,
    bad: { "wrong type": { name: false }, overlong: { name: long(101) }, "unknown field": { ownerId: "abcdefghijkl" } },
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/transfer",
    path: (w) => `${h(w)}/transfer`,
    bad: {
      "missing field": {},
      "wrong type": { newOwnerId: 7 },
      "malformed id": { newOwnerId: "NOT AN ID" },
      "unknown field": { newOwnerId: "abcdefghijkl", x: 1 },
    },
  },
  {
    method: "post",
    route: "POST /invites/accept",
    path: () => "/api/v1/invites/accept",
    bad: {
      "missing field": {},
      "wrong type": { code: 1 },
      overlong: { code: long(201) },
      "unknown field": { code: "x", y: 1 },
      "NUL character": { code: "abc\u0000" },
    },
  },
  {
    method: "post",
    route: "POST /households/:hid/freezers",
    path: (w) => `${h(w)}/freezers`,
    bad: {
      "missing name": { description: "x" },
      "wrong types": { name: 1, description: 2 },
      "overlong name": { name: long(101) },
      "overlong description": { name: "A", description: long(501) },
      "unknown field": { name: "A", householdId: "abcdefghijkl" },
      "NUL character": { name: "A", description: "garage\u0000" },
    },
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/freezers/:fid",
    path: f,
    bad: {
      "wrong type": { name: [] },
      overlong: { description: long(501) },
      "unknown field": { colour: "white" },
      "negative position": { position: -1 },
      "fractional position": { position: 1.5 },
      "string position": { position: "1" },
    },
  },
  {
    method: "post",
    route: "POST /households/:hid/freezers/:fid/compartments",
    path: (w) => `${f(w)}/compartments`,
    bad: {
      "missing name": { position: 1 },
      "negative position": { name: "A", position: -1 },
      "fractional position": { name: "A", position: 1.5 },
      "string position": { name: "A", position: "1" },
      "overlong name": { name: long(101) },
      "unknown field": { name: "A", freezerId: "abcdefghijkl" },
    },
  },
  {
    method: "patch",
    route: "PATCH /households/:hid/freezers/:fid/compartments/:cid",
    path: (w) => `${f(w)}/compartments/${w.compartmentId}`,
    bad: { "wrong type": { position: "top" }, overlong: { name: long(101) }, "unknown field": { size: 3 } },
  },
];
