import { expect } from "chai";
import request from "supertest";
import { ERROR_STATUS } from "../../../../src/adapters/http/error-status.js";
import type { ErrorCode } from "../../../../src/domain/shared/error-codes.js";
import { accessTable, type Method, routeAccessTable } from "./access-table.js";
import { badBodies } from "./bad-input-table.js";
import { barcodeBadBodies } from "./barcode-rows.js";
import { buildWorld, type Caller, type InventoryWorld, snapshot } from "./inventory-http-world.js";

async function expectRefused(
  world: InventoryWorld,
  method: Method,
  path: string,
  send: (r: request.Test) => request.Test,
) {
  const before = snapshot(world.store);
  const response = await send(request(world.app)[method](path).set(world.auth("owner")));
  expect(response.status, JSON.stringify(response.body)).to.equal(400);
  expect(response.body).to.include({ statusCode: 400, error: "Bad Request" });
  expect(ERROR_STATUS[response.headers["hearth-error-code"] as ErrorCode], "Hearth-Error-Code").to.equal(400);
  expect(response.body.details, JSON.stringify(response.body)).to.be.an("array").that.is.not.empty;
  for (const detail of response.body.details) expect(detail).to.have.all.keys("path", "message");
  expect(snapshot(world.store), "data changed").to.equal(before);
  return response;
}

describe("inventory HTTP: bad input is refused with 400 and details, data unchanged", () => {
  let world: InventoryWorld;
  before(async () => {
    world = await buildWorld();
  });

  for (const route of [...badBodies, ...barcodeBadBodies]) {
    describe(route.route, () => {
      for (const [problem, body] of Object.entries(route.bad)) {
        it(problem, async () => {
          await expectRefused(world, route.method, route.path(world), (r) =>
            r.set(route.headers ?? {}).send(body as object),
          );
        });
      }
      it("malformed JSON", async () => {
        await expectRefused(world, route.method, route.path(world), (r) =>
          r
            .set(route.headers ?? {})
            .set("Content-Type", "application/json")
            .send('{"name": "unterminated'),
        );
      });
    });
  }

  it("names each unknown field in details", async () => {
    const response = await expectRefused(world, "post", "/api/v1/households", (r) => r.send({ name: "A", a: 1, b: 2 }));
    expect(response.body.details.map((d: { path: string }) => d.path)).to.have.members(["a", "b"]);
  });

  describe("bad input from a caller the route turns away → 403 first, as a guard before validation answers", () => {
    // Every household route refuses an unknown query parameter; the access check comes first.
    const guarded = routeAccessTable.filter((row) => row.expect.anonymous === 401 && row.expect.outsider === 403);
    for (const row of guarded) {
      const callers: Caller[] = row.expect.member === 403 ? ["outsider", "member"] : ["outsider"];
      for (const caller of callers) {
        it(`${row.route} as ${caller}`, async () => {
          const before = snapshot(world.store);
          const response = await request(world.app)
            [row.method](`${row.path(world)}?unexpected=1`)
            .set(world.auth(caller))
            .set(row.headers ?? {})
            .send((row.body?.(world, caller) ?? {}) as object);
          expect(response.status, JSON.stringify(response.body)).to.equal(403);
          expect(snapshot(world.store), "data changed").to.equal(before);
        });
      }
    }

    it("a member still learns what was wrong with the input", async () => {
      const response = await request(world.app)
        .post(`/api/v1/households/${world.householdId}/freezers`)
        .set(world.auth("member"))
        .send({ name: "" });
      expect(response.status).to.equal(400);
      expect(response.body.details.map((d: { path: string }) => d.path)).to.deep.equal(["name"]);
    });
  });

  describe("malformed path ids → 400 on every route with ids", () => {
    const routesWithIds = accessTable.filter((row) => row.route.includes(":") && !row.route.includes("hid ignored"));
    for (const row of routesWithIds) {
      it(row.route, async () => {
        const path = row.path(world).replace(/\/[a-z][a-z0-9]{23}(?=\/|$)/g, "/Not-An-Id!");
        expect(path).to.include("Not-An-Id!");
        await expectRefused(world, row.method, path, (r) =>
          row.body ? r.send(row.body(world, "owner") as object) : r,
        );
      });
    }
  });

  it("a path id that is not valid percent-encoding → 400 with details", async () => {
    await expectRefused(world, "get", `/api/v1/households/${world.householdId}/freezers/%E0%A4%A`, (r) => r);
  });

  it("a body that does not decompress as its Content-Encoding says → 400 with details", async () => {
    for (const encoding of ["gzip", "deflate", "br"]) {
      const response = await expectRefused(world, "post", "/api/v1/households", (r) =>
        r.set("Content-Type", "application/json").set("Content-Encoding", encoding).send('{"name":"Home"}'),
      );
      expect(response.body.message, encoding).to.equal(
        "Request body cannot be decompressed as its Content-Encoding says",
      );
    }
  });

  it("413 for a JSON body over 100 kB, data unchanged", async () => {
    const before = snapshot(world.store);
    const response = await request(world.app)
      .post("/api/v1/households")
      .set(world.auth("owner"))
      .send({ name: "A", padding: "x".repeat(101 * 1024) });
    expect(response.status).to.equal(413);
    expect(response.body).to.include({ statusCode: 413, error: "Payload Too Large" });
    expect(snapshot(world.store)).to.equal(before);
  });

  it("a body that is not JSON is refused with 415 and details, not ignored", async () => {
    const before = snapshot(world.store);
    for (const [method, path, contentType, body] of [
      ["post", "/api/v1/households", "text/plain", '{"name":"Home"}'],
      ["patch", `/api/v1/households/${world.householdId}`, "application/x-www-form-urlencoded", "name=Flat"],
    ] as const) {
      const response = await request(world.app)
        [method](path)
        .set(world.auth("owner"))
        .set("Content-Type", contentType)
        .send(body);
      expect(response.status, JSON.stringify(response.body)).to.equal(415);
      expect(response.body).to.include({ statusCode: 415, error: "Unsupported Media Type" });
      expect(response.body.details).to.be.an("array").that.is.not.empty;
    }
    expect(snapshot(world.store)).to.equal(before);
  });

  it("reads +json media types as JSON", async () => {
    const response = await request(world.app)
      .post("/api/v1/households")
      .set(world.auth("outsider"))
      .set("Content-Type", "application/vnd.api+json")
      .send('{"name":"Cabin"}');
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
  });

  /**
   * Rows of routes the route definitions mount (health, the document and Swagger UI are plain
   * handlers) that the owner gets past the household guard on.
   */
  const definedRoutes = accessTable.filter(
    (row) => !/^GET \/(health|openapi\.json|api\/docs)/.test(row.route) && row.expect.owner !== 403,
  );

  describe("routes without a body refuse one with fields", () => {
    for (const row of definedRoutes.filter((candidate) => !candidate.body)) {
      it(row.route, async () => {
        const response = await expectRefused(world, row.method, row.path(world), (r) =>
          r.set(row.headers ?? {}).send({ unexpected: true }),
        );
        expect(response.body.details.map((d: { path: string }) => d.path)).to.deep.equal(["unexpected"]);
      });
    }
  });

  describe("unknown query parameters are refused on every route", () => {
    for (const row of definedRoutes) {
      it(row.route, async () => {
        const response = await expectRefused(world, row.method, `${row.path(world)}?unexpected=1`, (r) =>
          row.body ? r.set(row.headers ?? {}).send(row.body(world, "owner") as object) : r.set(row.headers ?? {}),
        );
        expect(response.body.details.map((d: { path: string }) => d.path)).to.deep.equal(["unexpected"]);
      });
    }
  });
});
