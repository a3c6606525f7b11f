import { expect } from "chai";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { PREPARED } from "../../../src/adapters/persistence/pg-prepared-statements.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

/**
 * On a real PostgreSQL: the statements the repositories mark run as named prepared statements
 * (one connection, so what pg_prepared_statements shows is the pool's), others do not, a
 * column change under a kept `SELECT *` costs one failed statement, and the setting turns it off.
 */
describe("named prepared statements on PostgreSQL", function () {
  this.timeout(120_000);
  let server: TestDatabase;
  const opened: Database[] = [];

  before(async function () {
    server = await acquireDatabase("prepared statements");
    if (!server.url) this.skip();
  });
  after(async () => {
    for (const database of opened) await database.close();
    await server?.release();
  });

  async function open(preparedStatements?: boolean): Promise<Database> {
    const database = await openDatabase({
      databaseUrl: server.url,
      dataDir: ":memory:",
      poolMax: 1,
      preparedStatements,
    });
    opened.push(database);
    return database;
  }

  const prepared = async (database: Database) =>
    (
      await database.knex.raw<{ rows: { statement: string; generic_plans: number }[] }>(
        "SELECT statement, generic_plans FROM pg_prepared_statements ORDER BY statement",
      )
    ).rows;

  it("prepares the marked statements once per text and keeps a generic plan for them", async () => {
    const database = await open();
    await database.knex.raw("CREATE TABLE IF NOT EXISTS prepared_things (id text PRIMARY KEY, n int)");
    await database.knex.raw("TRUNCATE prepared_things");
    for (let i = 0; i < 8; i++) {
      await database.knex.raw("INSERT INTO prepared_things VALUES (?, ?)", [`a${i}`, i]).options(PREPARED);
      await database.knex.raw("SELECT n FROM prepared_things WHERE id = ?", [`a${i}`]);
    }
    const rows = await database.knex
      .raw<{ rows: { n: number }[] }>("SELECT n FROM prepared_things WHERE id = ?", ["a3"])
      .options(PREPARED);
    expect(rows.rows).to.deep.equal([{ n: 3 }]);
    const kept = await prepared(database);
    expect(kept.map((row) => row.statement)).to.deep.equal([
      "INSERT INTO prepared_things VALUES ($1, $2)",
      "SELECT n FROM prepared_things WHERE id = $1",
    ]);
    expect(kept[0]!.generic_plans).to.be.greaterThan(0);
  });

  it("reads on after a column changes under a kept SELECT *: at once outside a transaction, after it inside one", async () => {
    const database = await open();
    await database.knex.raw("DROP TABLE IF EXISTS prepared_changing");
    await database.knex.raw("CREATE TABLE prepared_changing (id text PRIMARY KEY)");
    await database.knex.raw("INSERT INTO prepared_changing VALUES ('x')");
    const read = (db: Database["knex"] = database.knex) =>
      db.raw<{ rows: object[] }>("SELECT * FROM prepared_changing WHERE id = ?", ["x"]).options(PREPARED);
    expect((await read()).rows).to.deep.equal([{ id: "x" }]);
    await database.knex.raw("ALTER TABLE prepared_changing ADD COLUMN note text DEFAULT 'new'");
    expect((await read()).rows).to.deep.equal([{ id: "x", note: "new" }]);
    await database.knex.raw("ALTER TABLE prepared_changing ADD COLUMN size int DEFAULT 2");
    const refused = await database.knex.transaction((trx) => read(trx)).catch((error: unknown) => error);
    expect(refused).to.have.property("code", "0A000");
    expect((await read()).rows).to.deep.equal([{ id: "x", note: "new", size: 2 }]);
    expect((await database.knex.transaction((trx) => read(trx))).rows).to.deep.equal([
      { id: "x", note: "new", size: 2 },
    ]);
  });

  it("runs the item repository's reads and whole lists as prepared statements, not searches", async () => {
    const database = await open();
    await migrateToLatest(database.knex);
    const items = new KnexItemRepository(database.knex);
    expect(await items.findForMember({ userId: "nobody", householdId: "none", itemId: "none" })).to.equal(undefined);
    expect(await items.historyForMember({ userId: "nobody", householdId: "none", itemId: "none" })).to.equal(undefined);
    const list = { householdId: "none", page: 1, limit: 20 };
    expect(await items.listForMember("nobody", list)).to.equal(undefined);
    expect(await items.listForMember("nobody", { ...list, search: "soup" })).to.equal(undefined);
    const statements = (await prepared(database)).map((row) => row.statement);
    // The whole list's plan suits every household; a search is planned for its words.
    expect(statements.filter((text) => text.startsWith("WITH member AS"))).to.have.length(1);
    expect(statements.some((text) => text.includes("name_search"))).to.equal(false);
    expect(statements.some((text) => text.startsWith("SELECT v.* FROM memberships m"))).to.equal(true);
    expect(statements.some((text) => text.startsWith("SELECT f.id AS found"))).to.equal(true);
  });

  it("prepares nothing with preparedStatements: false (DATABASE_PREPARED_STATEMENTS=false)", async () => {
    const database = await open(false);
    await database.knex.raw("SELECT 1 WHERE ? = 1", [1]).options(PREPARED);
    expect(await prepared(database)).to.deep.equal([]);
  });
});
