import { PGlite } from "@electric-sql/pglite";
import { expect } from "chai";
import { PgliteStatementCache } from "../../../src/adapters/persistence/pglite-prepared-statements.js";

/** The cache must answer exactly as PGlite's own query() does, on the same database. */
describe("PGlite prepared statement cache", function () {
  this.timeout(60_000);
  let pglite: PGlite;
  let cache: PgliteStatementCache;

  before(async () => {
    pglite = await PGlite.create();
    await pglite.exec(`CREATE TABLE things (
      id text PRIMARY KEY, quantity numeric, at timestamptz, tags jsonb, big int8, flags boolean[], note text
    )`);
  });
  after(async () => pglite?.close());
  beforeEach(async () => {
    await pglite.exec("TRUNCATE things");
    cache = new PgliteStatementCache(pglite, { capacity: 3 });
  });

  const row = (id: string) => [id, 1.5, new Date("2026-11-26T10:00:00.000Z"), { a: [1, "x"] }, 7, [true, false], null];
  const insert = "INSERT INTO things VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *";

  it("returns the same rows, fields and counts as PGlite's query(), first and later times", async () => {
    const direct = await pglite.query(insert, row("a"));
    for (const id of ["b", "c"]) {
      const cached = await cache.query(insert, row(id));
      expect(cached.rows).to.deep.equal([{ ...direct.rows[0]!, id }]);
      expect(cached.fields).to.deep.equal(direct.fields);
      expect(cached.affectedRows).to.equal(direct.affectedRows);
    }
    const select = "SELECT * FROM things WHERE id = ANY($1) ORDER BY id";
    expect((await cache.query(select, [["a", "c"]])).rows).to.deep.equal(
      (await pglite.query(select, [["a", "c"]])).rows,
    );
    const update = "UPDATE things SET note = $1 WHERE quantity > $2";
    expect((await cache.query(update, ["n", 1])).affectedRows).to.equal(3);
    expect((await cache.query(update, [null, 9])).affectedRows).to.equal(0);
  });

  it("reports a failing statement as PGlite does and keeps working after it, also inside a transaction", async () => {
    const error = await cache.query("SELECT * FROM missing WHERE id = $1", ["x"]).catch((caught: unknown) => caught);
    expect(error)
      .to.be.instanceOf(Error)
      .with.property("message")
      .that.matches(/missing/);
    await cache.query(insert, row("a"));
    const duplicate = await cache.query(insert, row("a")).catch((caught: unknown) => caught);
    expect(duplicate).to.have.property("code", "23505");
    await pglite.query("BEGIN");
    await cache.query(insert, row("b"));
    await cache.query(insert, row("b")).catch(() => undefined);
    await pglite.query("ROLLBACK");
    expect((await cache.query("SELECT id FROM things ORDER BY id", [])).rows).to.deep.equal([{ id: "a" }]);
  });

  it("lets the event loop take a turn before each unit of work, so work that arrived meanwhile is not left behind", async () => {
    const order: string[] = [];
    await cache.query("SELECT 1", []);
    // Scheduled before the second statement is asked for: without the turn, the statement
    // would run in the same microtask queue, ahead of it.
    setImmediate(() => order.push("turn"));
    await cache.query("SELECT 2", []);
    order.push("statement");
    setImmediate(() => order.push("turn"));
    await cache.query("BEGIN", []);
    order.push("transaction control");
    await cache.query("ROLLBACK", []);
    expect(order).to.deep.equal(["turn", "statement", "turn", "transaction control"]);
  });

  it("inside a transaction goes on without a turn, until the loop has not turned for 5 ms", async () => {
    let clock = 1_000;
    const timed = new PgliteStatementCache(pglite, { now: () => clock });
    const order: string[] = [];
    await timed.query("BEGIN", []);
    try {
      // The transaction holds the one connection: a turn here would let other requests' work
      // in while every one of them waits for it.
      setImmediate(() => order.push("turn"));
      clock += 4;
      await timed.query("SELECT 1", []);
      order.push("within 5 ms");
      await new Promise((resolve) => setImmediate(resolve));
      // A long transaction (an import) still lets timers, MQTT and health checks in.
      setImmediate(() => order.push("turn"));
      clock += 6;
      await timed.query("SELECT 2", []);
      order.push("after 5 ms");
    } finally {
      await timed.query("ROLLBACK", []);
    }
    expect(order).to.deep.equal(["within 5 ms", "turn", "turn", "after 5 ms"]);
  });

  it("rejects a statement on a closed PGlite with PGlite's own error", async () => {
    const closing = await PGlite.create();
    const onClosed = new PgliteStatementCache(closing);
    await closing.close();
    let failure: unknown;
    await onClosed.query("SELECT 1", []).catch((error: unknown) => {
      failure = error;
    });
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.match(/closed/i);
  });

  it("runs a statement at once when built without the turn (the benchmark's comparison)", async () => {
    const direct = new PgliteStatementCache(pglite, { turnBeforeStatements: false });
    const order: string[] = [];
    setImmediate(() => order.push("turn"));
    await direct.query("SELECT 3", []);
    order.push("statement");
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).to.deep.equal(["statement", "turn"]);
  });

  const prepared = async () =>
    (await pglite.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements")).rows.map(
      (statement) => statement.statement,
    );

  it("keeps at most `capacity` statements, the least recently used going first", async () => {
    const before = await prepared();
    for (const limit of [1, 2, 1, 3, 4]) await cache.query(`SELECT id FROM things LIMIT ${limit}`, []);
    const added = (await prepared()).filter((statement) => !before.includes(statement));
    expect(added.sort()).to.deep.equal([1, 3, 4].map((limit) => `SELECT id FROM things LIMIT ${limit}`));
  });

  it("prepares again when a schema change alters what a statement returns", async () => {
    const select = "SELECT * FROM things";
    await cache.query(insert, row("a"));
    expect(Object.keys((await cache.query(select, [])).rows[0] as object)).to.not.include("extra");
    await pglite.exec("ALTER TABLE things ADD COLUMN extra text DEFAULT 'x'");
    expect((await cache.query<{ extra: string }>(select, [])).rows[0]?.extra).to.equal("x");
    await pglite.exec("ALTER TABLE things DROP COLUMN extra");
  });

  it("leaves DDL, transaction control and array rows to PGlite's query()", async () => {
    await cache.query("BEGIN");
    await cache.query("CREATE TEMP TABLE scratch (x int)");
    await cache.query("COMMIT");
    const arrays = await cache.query("SELECT 1 AS one", [], { rowMode: "array" });
    expect(arrays.rows).to.deep.equal([[1]]);
    const before = (await prepared()).length;
    await cache.query("CREATE TEMP TABLE scratch2 (x int)");
    expect((await prepared()).length).to.equal(before);
  });
});
