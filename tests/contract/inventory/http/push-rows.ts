import { createECDH, randomBytes } from "node:crypto";
import type { AccessRow, Expectation } from "./access-table.js";
import type { BodyRoute } from "./bad-input-table.js";
import type { Caller, InventoryWorld } from "./inventory-http-world.js";

/** A subscription as a browser on the internet would send it (the world refuses private endpoints). */
export function browserSubscription(name: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.com/send/${name}-${randomBytes(6).toString("hex")}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
}

const all = (status: number): Expectation => ({ anonymous: status, outsider: status, member: status, owner: status });
const signedIn = (status: number): Expectation => ({ anonymous: 401, outsider: status, member: status, owner: status });
const members = (status: number): Expectation => ({ anonymous: 401, outsider: 403, member: status, owner: status });
const reminders = (w: InventoryWorld) => `/api/v1/households/${w.householdId}/push-reminders`;

/** Web Push: the public key, the caller's devices, the caller's own reminder per household. */
export const pushAccessRows: AccessRow[] = [
  { method: "get", route: "GET /push/public-key", path: () => "/api/v1/push/public-key", expect: all(200) },
  {
    method: "post",
    route: "POST /users/me/push-subscriptions",
    path: () => "/api/v1/users/me/push-subscriptions",
    body: (_w, caller: Caller) => browserSubscription(caller),
    expect: signedIn(201),
  },
  {
    method: "delete",
    route: "DELETE /users/me/push-subscriptions (a device the caller does not have)",
    path: () => "/api/v1/users/me/push-subscriptions",
    body: () => ({ endpoint: "https://push.example.com/send/nobody" }),
    expect: signedIn(404),
  },
  { method: "get", route: "GET /households/:hid/push-reminders", path: reminders, expect: members(200) },
  {
    method: "put",
    route: "PUT /households/:hid/push-reminders",
    path: reminders,
    body: () => ({ enabled: true, timeOfDay: "07:30", daysAhead: 2 }),
    expect: members(200),
  },
];

const valid = browserSubscription("bad-input");

/** Bodies the push routes refuse with 400 and details. */
export const pushBadBodies: BodyRoute[] = [
  {
    method: "post",
    route: "POST /users/me/push-subscriptions",
    path: () => "/api/v1/users/me/push-subscriptions",
    bad: {
      "missing fields": {},
      "plain http endpoint": { ...valid, endpoint: "http://push.example.com/send/1" },
      "loopback endpoint (SSRF)": { ...valid, endpoint: "https://127.0.0.1:8443/send/1" },
      "LAN endpoint (SSRF)": { ...valid, endpoint: "https://192.168.1.1/cgi-bin/reboot" },
      "local name (SSRF)": { ...valid, endpoint: "https://nas.local/send/1" },
      "cloud metadata address (SSRF)": { ...valid, endpoint: "https://169.254.169.254/latest" },
      "endpoint with credentials": { ...valid, endpoint: "https://user:pw@push.example.com/send/1" },
      "overlong endpoint": { ...valid, endpoint: `https://push.example.com/${"x".repeat(2100)}` },
      "not a URL": { ...valid, endpoint: "push me" },
      "p256dh too short": { ...valid, keys: { ...valid.keys, p256dh: "AAAA" } },
      "p256dh not on the curve": {
        ...valid,
        keys: { ...valid.keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url") },
      },
      "auth of the wrong size": { ...valid, keys: { ...valid.keys, auth: randomBytes(8).toString("base64url") } },
      "keys not base64url": { ...valid, keys: { ...valid.keys, auth: "!!!!!!!!!!!!!!!!!!!!!!" } },
      "unknown key field": { ...valid, keys: { ...valid.keys, extra: "x" } },
      "unknown language": { ...valid, language: "fr" },
      "unknown field": { ...valid, userId: "someone-else" },
      "array body": [valid],
    },
  },
  {
    method: "delete",
    route: "DELETE /users/me/push-subscriptions",
    path: () => "/api/v1/users/me/push-subscriptions",
    bad: {
      "missing endpoint": {},
      "empty endpoint": { endpoint: "" },
      "endpoint not a string": { endpoint: 5 },
      "unknown field": { endpoint: "https://push.example.com/x", all: true },
    },
  },
  {
    method: "put",
    route: "PUT /households/:hid/push-reminders",
    path: reminders,
    bad: {
      "time of day out of range": { timeOfDay: "24:00" },
      "time of day with seconds": { timeOfDay: "07:30:00" },
      "negative days ahead": { daysAhead: -1 },
      "days ahead over a year": { daysAhead: 366 },
      "fractional days ahead": { daysAhead: 0.5 },
      "enabled as a string": { enabled: "true" },
      "someone else's reminder": { userId: "x" },
      "array body": [true],
    },
  },
];
