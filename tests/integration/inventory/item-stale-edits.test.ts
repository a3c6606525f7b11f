import { expect } from "chai";
import type { Express } from "express";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { buildMemoryInventoryApi } from "../../support/memory-inventory-api.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

const config = () =>
  loadConfig({
    JWT_SECRET: "stale-edits-test-secret-0123456789abcdef",
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    RATE_LIMIT_PER_MINUTE: "10000",
  });

let counter = 0;

/** A signed-in owner with a household, a freezer, a compartment and one item. */
async function itemOf(app: Express) {
  counter++;
  const owner = await request(app)
    .post("/api/v1/auth/register")
    .send({ email: `stale-${counter}-${Date.now()}@example.com`, password: "password123", name: "Anna" });
  const auth = { Authorization: `Bearer ${owner.body.accessToken}` };
  const hid = (await request(app).post("/api/v1/households").set(auth).send({ name: "Home" })).body.id as string;
  const freezer = await request(app).post(`/api/v1/households/${hid}/freezers`).set(auth).send({ name: "Chest" });
  const compartment = await request(app)
    .post(`/api/v1/households/${hid}/freezers/${freezer.body.id}/compartments`)
    .set(auth)
    .send({ name: "Top" });
  const item = await request(app)
    .post(`/api/v1/households/${hid}/items`)
    .set(auth)
    .send({ name: "Peas", quantity: 2, freezerId: freezer.body.id, compartmentId: compartment.body.id });
  expect(item.status, JSON.stringify(item.body)).to.equal(201);
  return { auth, path: `/api/v1/households/${hid}/items/${item.body.id}`, item: item.body };
}

function describeStaleEdits(label: string, app: () => Express) {
  describe(`stale item edits (${label})`, () => {
    it("sends the version as ETag and applies an edit whose If-Match is current", async () => {
      const { auth, path, item } = await itemOf(app());
      const read = await request(app()).get(path).set(auth);
      expect(read.headers.etag).to.equal(`"${item.updatedAt}"`);
      const edited = await request(app())
        .patch(path)
        .set(auth)
        .set("If-Match", String(read.headers.etag))
        .send({ name: "Peas!" });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      expect(edited.headers.etag).to.equal(`"${edited.body.updatedAt}"`);
      expect(edited.body.updatedAt).to.not.equal(item.updatedAt);
    });

    it("refuses an edit made on an older version with 412 ITEM_CHANGED and the current item, changing nothing", async () => {
      const { auth, path, item } = await itemOf(app());
      const first = await request(app())
        .patch(path)
        .set(auth)
        .set("If-Match", `"${item.updatedAt}"`)
        .send({ quantity: 5 });
      expect(first.status).to.equal(200);
      const stale = await request(app())
        .patch(path)
        .set(auth)
        .set("If-Match", `"${item.updatedAt}"`)
        .send({ name: "Beans" });
      expect(stale.status).to.equal(412);
      expect(stale.body).to.include({ statusCode: 412, error: "Precondition Failed" });
      expect(stale.body.item).to.deep.equal(first.body);
      expect(stale.headers.etag).to.equal(`"${first.body.updatedAt}"`);
      const now = await request(app()).get(path).set(auth);
      expect(now.body).to.deep.equal(first.body);
      const history = await request(app()).get(`${path}/history`).set(auth);
      expect(JSON.stringify(history.body)).to.not.include("Beans");
      // A stale move is refused the same way.
      const move = await request(app())
        .patch(path)
        .set(auth)
        .set("If-Match", `"${item.updatedAt}"`)
        .send({ freezerId: item.freezerId, compartmentId: item.compartmentId });
      expect(move.status).to.equal(412);
    });

    it("lets exactly one of several parallel edits on the same version through", async () => {
      const { auth, path, item } = await itemOf(app());
      const results = await Promise.all(
        [3, 4, 6, 7].map((quantity) =>
          request(app()).patch(path).set(auth).set("If-Match", `"${item.updatedAt}"`).send({ quantity }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, 412, 412, 412]);
      const winner = results.find((r) => r.status === 200)!;
      const now = await request(app()).get(path).set(auth);
      expect(now.body.quantity).to.equal(winner.body.quantity);
    });

    it("without If-Match (or with *) edits as before", async () => {
      const { auth, path } = await itemOf(app());
      expect((await request(app()).patch(path).set(auth).send({ quantity: 3 })).status).to.equal(200);
      expect((await request(app()).patch(path).set(auth).set("If-Match", "*").send({ quantity: 4 })).status).to.equal(
        200,
      );
    });
  });
}

describe("stale item edits on the in-memory adapters", () => {
  let api: Awaited<ReturnType<typeof buildMemoryInventoryApi>>;
  before(async () => {
    api = await buildMemoryInventoryApi({ config: config(), logger: new MemoryLogger() });
  });
  after(() => api.close());
  describeStaleEdits("memory", () => api.app);
});

for (const source of ["pglite", { acquired: "stale item edits" }] as const) {
  describe(`stale item edits on ${source === "pglite" ? "PGlite" : "the acquired database"}`, () => {
    const database = useMigratedDatabase(source);
    let api: Awaited<ReturnType<typeof buildInventoryApi>>;
    before(async () => {
      api = await buildInventoryApi({ config: config(), database: database(), logger: new MemoryLogger() });
    });
    after(() => api.close());
    describeStaleEdits(source === "pglite" ? "PGlite" : "acquired", () => api.app);
  });
}
