import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { KnexInventorySummaries } from "../../../src/adapters/persistence/knex-inventory-summaries.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

for (const source of ["pglite", { acquired: "inventory summaries" }] as const) {
  describe(`household names for the MQTT summaries (${source === "pglite" ? "PGlite" : "acquired database"})`, () => {
    const database = useMigratedDatabase(source);

    it("lists every household oldest first, or only the asked ones that exist, in chunks past 1 000", async () => {
      const api = await buildInventoryApi({
        config: loadConfig({
          JWT_SECRET: "summaries-test-secret-0123456789abcdef",
          AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        }),
        database: database(),
        logger: new MemoryLogger(),
      });
      try {
        const app = request(api.app);
        const owner = await app
          .post("/api/v1/auth/register")
          .send({ email: `names-${Date.now()}@example.com`, password: "password123", name: "Anna" });
        const auth = { Authorization: `Bearer ${owner.body.accessToken}` };
        const ids: string[] = [];
        for (const name of ["Home", "Cabin", "Office"]) {
          ids.push((await app.post("/api/v1/households").set(auth).send({ name })).body.id as string);
        }
        const summaries = new KnexInventorySummaries(database().knex);
        const all = await summaries.listHouseholds();
        // Two of them may share a millisecond: then the id decides, so the expected order is read
        // off the stored rows rather than assumed from the order of the requests.
        const oldestFirst = await database()
          .knex("households")
          .whereIn("id", ids)
          .orderBy([{ column: "created_at" }, { column: "id" }])
          .select<{ name: string }[]>("name");
        expect(oldestFirst.map((row) => row.name).sort()).to.deep.equal(["Cabin", "Home", "Office"]);
        expect(all.filter((household) => ids.includes(household.id)).map((household) => household.name)).to.deep.equal(
          oldestFirst.map((row) => row.name),
        );
        const asked = await summaries.listHouseholds([ids[2]!, "no-such-household", ids[0]!]);
        expect(asked.map((household) => household.name).sort()).to.deep.equal(["Home", "Office"]);
        expect(await summaries.listHouseholds([])).to.deep.equal([]);
        // More ids than one statement takes binds (65 535): the chunks together find the one that exists.
        const many = [...Array.from({ length: 70_000 }, (_, index) => `missing-${index}`), ids[1]!];
        expect(await summaries.listHouseholds(many)).to.deep.equal([{ id: ids[1], name: "Cabin" }]);
      } finally {
        await api.close();
      }
    });
  });
}
