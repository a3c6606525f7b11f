import { expect } from "chai";
import request from "supertest";
import { type ItemsHttpWorld, knexItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";

/**
 * Any account can send anything: every operation the API documents (its OpenAPI document, so a
 * route added later is covered without touching this file) gets odd path ids, query values, raw
 * bodies and odd values in each field of its body, against a real database, where a text or a
 * number the database refuses would surface as a 500. Every answer must be below 500, and every
 * refusal in the error format.
 */

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}

/** Path and query values: not ids, ids of another household, malformed escapes, a lone surrogate. */
function oddTexts(world: ItemsHttpWorld): string[] {
  return [
    "",
    "x",
    "-1",
    "1e400",
    "99999999999999999999",
    "NaN",
    encodeURIComponent("\u0000"),
    "%ED%A0%80",
    "%",
    "%zz",
    "x".repeat(5000),
    "2026-13-45",
    encodeURIComponent("../../etc"),
    "00000000-0000-0000-0000-000000000000",
    world.outsiderHid,
  ];
}

/** Values for one field of a body, whatever its type. */
function oddValues(world: ItemsHttpWorld): unknown[] {
  return [
    null,
    true,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 2,
    "",
    "a\u0000b",
    "\ud800",
    "x".repeat(100_000),
    [],
    { a: 1 },
    "2026-02-30",
    "0001-01-01T00:00:00Z",
    "275760-09-13T00:00:00.000Z",
    world.outsiderHid,
    world.outsiderFreezerId,
    world.outsiderCompartmentId,
  ];
}

const RAW_BODIES = [
  "null",
  "[]",
  '"x"',
  "1e400",
  '{"a":1e400}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  "{",
  "\u0000",
  '{"name":"\\ud800"}',
];

/** Reads first, writes next; deletes and the account's own routes (which end the session) last. */
function rank(path: string, method: string): number {
  return (/\/auth\/|\/account/.test(path) ? 4 : 0) + (method === "delete" ? 2 : 0) + (method === "get" ? 0 : 1);
}

async function fuzz(world: ItemsHttpWorld): Promise<{ requests: number; failures: string[] }> {
  const auth = { Authorization: `Bearer ${world.owner.token}` };
  const document = (await request(world.app).get("/api/v1/openapi.json")).body as OpenApiDocument;
  const item = await request(world.app)
    .post(`/api/v1/households/${world.hid}/items`)
    .set(auth)
    .send({ name: "Peas", quantity: 2, freezerId: world.freezerId, compartmentId: world.compartmentIds[0] });
  const entry = await request(world.app)
    .post(`/api/v1/households/${world.hid}/shopping-list`)
    .set(auth)
    .send({ name: "Milk" });
  const ids: Record<string, string> = {
    householdId: world.hid,
    freezerId: world.freezerId,
    compartmentId: world.compartmentIds[0],
    itemId: item.body.id,
    entryId: entry.body.id,
  };
  const unknownId = "00000000-0000-4000-8000-000000000000";
  const url = (path: string, odd?: [string, string]) =>
    `/api/v1${path.replace(/\{(\w+)\}/g, (_whole, name: string) => (odd?.[0] === name ? odd[1] : (ids[name] ?? unknownId)))}`;
  const failures: string[] = [];
  let requests = 0;
  const send = async (method: string, target: string, body?: string) => {
    requests++;
    let call = request(world.app)[method as "get"](target).set(auth);
    if (body !== undefined) call = call.set("Content-Type", "application/json").send(body);
    const response = await call;
    const said = `${method.toUpperCase()} ${target.slice(0, 150)} ${body === undefined ? "" : body.slice(0, 80)}`;
    if (response.status >= 500) failures.push(`${said} → ${response.status} ${JSON.stringify(response.body)}`);
    else if (response.status >= 400 && typeof response.body?.message !== "string") {
      failures.push(`${said} → ${response.status} outside the error format: ${response.text.slice(0, 120)}`);
    }
  };

  const operations = Object.entries(document.paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
    .sort((a, b) => rank(a.path, a.method) - rank(b.path, b.method));
  expect(operations.length, "operations in the OpenAPI document").to.be.greaterThan(50);
  for (const { path, method, operation } of operations) {
    for (const name of path.match(/\{(\w+)\}/g)?.map((param) => param.slice(1, -1)) ?? []) {
      for (const odd of oddTexts(world)) await send(method, url(path, [name, odd]));
    }
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== "query") continue;
      for (const odd of oddTexts(world)) await send(method, `${url(path)}?${parameter.name}=${odd}`);
    }
    if (method === "get") continue;
    for (const raw of RAW_BODIES) await send(method, url(path), raw);
    const schema = operation.requestBody?.content?.["application/json"]?.schema;
    const fields = schema?.$ref ? document.components?.schemas?.[schema.$ref.split("/").pop() ?? ""] : schema;
    for (const field of Object.keys(fields?.properties ?? {})) {
      for (const value of oddValues(world)) {
        // The other fields valid, so the odd one is what the route meets.
        const body = { name: "Peas", quantity: 1, freezerId: world.freezerId, compartmentId: world.compartmentIds[0] };
        await send(method, url(path), JSON.stringify({ ...body, [field]: value }));
      }
    }
  }
  return { requests, failures };
}

describe("inventory HTTP: hostile input on every documented operation", function () {
  this.timeout(600_000);

  it("answers below 500, in the error format, on PGlite", async () => {
    const world = await knexItemsWorld();
    try {
      const { requests, failures } = await fuzz(world);
      expect(requests).to.be.greaterThan(3000);
      expect(failures, failures.slice(0, 20).join("\n")).to.deep.equal([]);
    } finally {
      await world.close();
    }
  });

  it("answers below 500, in the error format, on PostgreSQL", async () => {
    const server = await acquireDatabase("hostile input");
    const world = await knexItemsWorld(server.url);
    try {
      const { failures } = await fuzz(world);
      expect(failures, failures.slice(0, 20).join("\n")).to.deep.equal([]);
    } finally {
      await world.close();
      await server.release();
    }
  });
});
