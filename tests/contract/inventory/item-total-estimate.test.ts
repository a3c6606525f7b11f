import { expect } from "chai";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

/** Past the exact-count limit, a list without search estimates its total and says so. */
for (const source of ["pglite", { acquired: "item total estimate" }] as const) {
  describe(`item list total past the exact-count limit (knex on ${source === "pglite" ? "PGlite" : "the test database"})`, () => {
    const database = useMigratedDatabase(source);

    it("counts exactly up to the limit, then estimates (never below the limit) and flags it", async () => {
      const world = makeWorld();
      await seedWorld(database().knex, world);
      const limited = new KnexItemRepository(database().knex, { exactTotalLimit: 5 });
      const items = new KnexItemRepository(database().knex);
      await items.insertMany(Array.from({ length: 5 }, () => itemIn(world)));
      const query = { householdId: world.home.householdId, page: 1, limit: 2 };

      const atLimit = await limited.list(query);
      expect(atLimit).to.include({ total: 5 });
      expect(atLimit.totalEstimated).to.equal(undefined);

      await items.insertMany(Array.from({ length: 20 }, () => itemIn(world)));
      await database().knex.raw("ANALYZE freezer_items");
      const past = await limited.list(query);
      expect(past.totalEstimated).to.equal(true);
      expect(past.total).to.be.at.least(6);
      expect(past.items).to.have.length(2);

      // A member's list reads page and capped count in one statement; only the estimate is a second.
      const statements: string[] = [];
      const record = (query: { sql: string }) => statements.push(query.sql);
      database().knex.on("query", record);
      try {
        const asMember = await limited.listForMember(world.users.alice.id, query);
        expect(asMember?.totalEstimated).to.equal(true);
        expect(asMember?.total).to.equal(past.total);
        expect(asMember?.items.map((item) => item.id)).to.deep.equal(past.items.map((item) => item.id));
        expect(statements).to.have.length(2);
        expect(statements[1]).to.match(/^EXPLAIN/);
      } finally {
        database().knex.off("query", record);
      }

      // The default limit is far above this household: exact, unflagged.
      const exact = await items.list(query);
      expect(exact).to.include({ total: 25 });
      expect(exact.totalEstimated).to.equal(undefined);
    });

    it("keeps search totals exact (every match is read to rank it anyway)", async () => {
      const world = makeWorld();
      await seedWorld(database().knex, world);
      const limited = new KnexItemRepository(database().knex, { exactTotalLimit: 2 });
      await limited.insertMany(Array.from({ length: 4 }, () => itemIn(world, { name: "Frozen peas" })));
      const found = await limited.list({ householdId: world.home.householdId, search: "peas", page: 1, limit: 1 });
      expect(found).to.include({ total: 4 });
      expect(found.totalEstimated).to.equal(undefined);
    });
  });
}
