import { expect } from "chai";
import request from "supertest";
import { accessTable, type Method } from "./access-table.js";
import { badBodies } from "./bad-input-table.js";
import { buildWorld, type InventoryWorld, snapshot } from "./inventory-http-world.js";

async function expectRefused(world: InventoryWorld, method: Method, path: string, send: (r: request.Test) => request.Test) {
  const before = snapshot(world.store);
  const response = await send(request(world.app)[method](path).set(world.auth("owner")));
  expect(response.status, JSON.stringify(response.body)).to.equal(400);
  expect(response.body).to.include({ statusCode: 400, error: "Bad Request" });
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

  for (const route of badBodies) {
    describe(route.route, () => {
      for (const [problem, body] of Object.entries(route.bad)) {
        it(problem, async () => {
          await expectRefused(world, route.method, route.path(world), (r) => r.send(body as object));
        });
      }
      it("malformed JSON", async () => {
        await expectRefused(world, route.method, route.path(world), (r) =>
          r.set("Content-Type", "application/json").send('{"name": "unterminated'),
        );
      });
    });
  }

  it("names each unknown field in details", async () => {
    const response = await expectRefused(world, "post", "/api/v1/households", (r) => r.send({ name: "A", a: 1, b: 2 }));
    expect(response.body.details.map((d: { path: string }) => d.path)).to.have.members(["a", "b"]);
  });

  describe("malformed path ids → 400 on every route with ids", () => {
    const routesWithIds = accessTable.filter((row) => row.route.includes(":") && !row.route.includes("hid ignored"));
    for (const row of routesWithIds) {
      it(row.route, async () => {
        const path = row.path(world).replace(/\/[a-z][a-z0-9]{23}(?=\/|$)/g, "/Not-An-Id!");
        expect(path).to.include("Not-An-Id!");
        await expectRefused(world, row.method, path, (r) => (row.body ? r.send(row.body(world, "owner") as object) : r));
      });
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

  it("a body that is not JSON is refused, not a 500", async () => {
    const response = await request(world.app)
      .post("/api/v1/households")
      .set(world.auth("owner"))
      .set("Content-Type", "text/plain")
      .send("name=Home");
    expect(response.status).to.equal(400);
  });
});
