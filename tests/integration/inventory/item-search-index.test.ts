import { expect } from "chai";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { buildItemListSql, KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

const FOODS = [
  "Peas",
  "Chicken thighs",
  "Beef mince",
  "Salmon fillet",
  "Sweetcorn",
  "Spinach",
  "Pork chops",
  "Bread rolls",
];

/** The plan PostgreSQL picks for the API's search query, with sequential scans discouraged. */
async function searchPlan(database: Database, householdId: string, search: string): Promise<string> {
  const sql = buildItemListSql({ householdId, search, page: 1, limit: 20 });
  return database.knex.transaction(async (trx) => {
    await trx.raw("SET LOCAL enable_seqscan = off");
    const result = await trx.raw<{ rows: Record<string, string>[] }>(`EXPLAIN ${sql.count.text}`, sql.count.bindings);
    return result.rows.map((row) => Object.values(row)[0]).join("\n");
  });
}

for (const engine of ["PostgreSQL", "PGlite"] as const) {
  describe(`item search uses its GIN indexes (${engine})`, () => {
    let server: TestDatabase | undefined;
    let database: Database;
    let householdId: string;

    before(async function () {
      this.timeout(60_000);
      if (engine === "PostgreSQL") {
        server = await acquireDatabase("item search index");
        database = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
      } else {
        database = await openDatabase({ dataDir: ":memory:" });
      }
      await migrateToLatest(database.knex);
      const world = makeWorld();
      await seedWorld(database.knex, world);
      householdId = world.home.householdId;
      const items = Array.from({ length: 3000 }, (_, index) =>
        itemIn(world, { name: `${FOODS[index % FOODS.length]} batch ${index}` }),
      );
      items.push(itemIn(world, { name: "Crème fraîche" }));
      await new KnexItemRepository(database.knex).insertMany(items);
      await database.knex.raw("ANALYZE freezer_items");
    });

    after(async () => {
      await database?.close();
      await server?.release();
    });

    it("can plan a word of three letters or more through the trigram index", async () => {
      // In one household of 3 000 items the planner rightly filters the household's rows (the
      // folded name is stored, so the filter is cheap); without the household condition the
      // API's infix condition must still be answerable from freezer_items_search_trgm_idx.
      const sql = buildItemListSql({ householdId, search: "creme", page: 1, limit: 20 }).count;
      const infix = sql.text.slice(sql.text.indexOf("i.name_folded LIKE"));
      const plan = await database.knex.transaction(async (trx) => {
        await trx.raw("SET LOCAL enable_seqscan = off");
        const result = await trx.raw<{ rows: Record<string, string>[] }>(
          `EXPLAIN SELECT count(*) FROM freezer_items i WHERE ${infix}`,
          sql.bindings.slice(-1),
        );
        return result.rows.map((row) => Object.values(row)[0]).join("\n");
      });
      expect(plan).to.include("freezer_items_search_trgm_idx");
    });

    it("plans a one- or two-letter word through freezer_items_search_idx", async () => {
      expect(await searchPlan(database, householdId, "cr")).to.include("freezer_items_search_idx");
    });

    it("finds the rare item by an accent-free prefix and inside a word", async () => {
      for (const search of ["fraich", "aich", "CRÈM"]) {
        const page = await new KnexItemRepository(database.knex).list({ householdId, search, page: 1, limit: 20 });
        expect(page.items.map((item) => item.name)).to.deep.equal(["Crème fraîche"]);
        expect(page.total).to.equal(1);
      }
    });
  });
}
