import { expect } from "chai";
import request from "supertest";
import { buildWorld, type InventoryWorld, snapshot } from "./inventory-http-world.js";
import { itemBadBodies, seedItems } from "./items-rows.js";

/** The shared store plus every item route's view of the seeded items. */
async function itemState(world: InventoryWorld): Promise<string> {
  const base = `/api/v1/households/${world.householdId}/items`;
  const get = async (path: string) => (await request(world.app).get(path).set(world.auth("owner"))).body;
  return JSON.stringify([
    snapshot(world.store),
    await get(`${base}?limit=100`),
    await get(`${base}/archive`),
    await get(`${base}/${world.extra.itemId}/history`),
  ]);
}

describe("inventory HTTP: bad input on item routes is refused with 400 and details, data unchanged", () => {
  let world: InventoryWorld;
  before(async () => {
    world = await buildWorld();
    await seedItems(world);
  });

  const refused = async (method: "post" | "patch", path: string, send: (r: request.Test) => request.Test) => {
    const before = await itemState(world);
    const response = await send(request(world.app)[method](path).set(world.auth("owner")));
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body).to.include({ statusCode: 400, error: "Bad Request" });
    expect(response.body.details, JSON.stringify(response.body)).to.be.an("array").that.is.not.empty;
    for (const detail of response.body.details) expect(detail).to.have.all.keys("path", "message");
    expect(await itemState(world), "data changed").to.equal(before);
  };

  for (const route of itemBadBodies) {
    describe(route.route, () => {
      for (const [problem, body] of Object.entries(route.bad)) {
        it(problem, () => refused(route.method as "post" | "patch", route.path(world), (r) => r.send(body as object)));
      }
      it("malformed JSON", () =>
        refused(route.method as "post" | "patch", route.path(world), (r) =>
          r.set("Content-Type", "application/json").send('{"name": "unterminated'),
        ));
    });
  }
});
