import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect } from "chai";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { DURABLE_START_PARAMS, DurableNodeFS } from "../../../src/adapters/persistence/pglite-durable-fs.js";
import { PgliteStatementCache } from "../../../src/adapters/persistence/pglite-prepared-statements.js";

// The embedded database on disk syncs each commit's WAL before the commit returns, as PostgreSQL
// does: a power cut must not take back what Hearth has answered as saved.
describe("PGlite on disk: commits reach the disk", function () {
  this.timeout(60_000);
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "hearth-durable-"));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("syncs once per commit, and not for a read", async () => {
    let syncs = 0;
    const pglite = await PGlite.create({
      fs: new DurableNodeFS(directory, () => {
        syncs += 1;
      }),
      startParams: [...DURABLE_START_PARAMS],
    });
    try {
      expect((await pglite.query<{ fsync: string }>("SHOW fsync")).rows[0]?.fsync).to.equal("on");
      await pglite.exec("CREATE TABLE kept (value int)");
      const before = syncs;
      for (let value = 0; value < 5; value += 1) await pglite.query("INSERT INTO kept VALUES ($1)", [value]);
      expect(syncs - before).to.equal(5);
      const afterWrites = syncs;
      await pglite.query("SELECT count(*) FROM kept");
      expect(syncs).to.equal(afterWrites);
    } finally {
      await pglite.close();
    }
  });

  it("refuses every later statement at once, naming the failed sync, instead of sending it to the stopped database", async () => {
    let failing = false;
    const files = new DurableNodeFS(directory, () => {
      if (failing) throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
    });
    const pglite = await PGlite.create({ fs: files, startParams: [...DURABLE_START_PARAMS] });
    const statements = new PgliteStatementCache(pglite, { stoppedBy: () => files.syncFailure });
    await statements.query("CREATE TABLE kept (value int)");
    failing = true;
    const outcome = async (sql: string, params: unknown[] = []) => {
      try {
        await statements.query(sql, params);
        return "answered";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(await outcome("INSERT INTO kept VALUES ($1)", [1])).to.match(/could not fsync file/);
    // Sent to the stopped PGlite, this would never be answered.
    expect(await outcome("SELECT count(*) FROM kept")).to.equal(
      "The embedded database stopped after a failed sync to disk (EIO: i/o error, fsync); restart Hearth",
    );
  });

  it("is what openDatabase opens under a data directory; a database in memory has nothing to sync", async () => {
    const databases: Database[] = [];
    try {
      const onDisk = await openDatabase({ dataDir: directory });
      databases.push(onDisk);
      const settings = await onDisk.knex.raw<{ rows: { name: string; setting: string }[] }>(
        "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'wal_sync_method') ORDER BY name",
      );
      expect(settings.rows).to.deep.equal([
        { name: "fsync", setting: "on" },
        { name: "wal_sync_method", setting: "fsync" },
      ]);
      const inMemory = await openDatabase({ dataDir: ":memory:" });
      databases.push(inMemory);
      const memory = await inMemory.knex.raw<{ rows: { fsync: string }[] }>("SHOW fsync");
      expect(memory.rows[0]?.fsync).to.equal("off");
    } finally {
      for (const database of databases) await database.close();
    }
  });
});
