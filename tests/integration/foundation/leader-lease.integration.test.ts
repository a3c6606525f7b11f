import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { KnexCronFireLedger } from "../../../src/adapters/persistence/knex-cron-fire-ledger.js";
import { KnexJsonStore } from "../../../src/adapters/persistence/knex-json-store.js";
import { PostgresLeaderLease } from "../../../src/adapters/persistence/postgres-leader-lease.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

/** The lease, the cron ledger and fenced documents against real PostgreSQL. */
describe("engine lease on PostgreSQL (integration)", function () {
  this.timeout(60_000);
  let server: TestDatabase | undefined;
  let opened: Database | undefined;
  const leases: PostgresLeaderLease[] = [];
  let url: string | null = null;
  const database = (): Database => {
    if (!opened) throw new Error("no database");
    return opened;
  };

  before(async function () {
    server = await acquireDatabase("leader lease");
    url = server.url ?? null;
    if (!url) {
      console.warn("      SKIPPED LOUDLY: the engine lease needs PostgreSQL (TEST_DATABASE_URL or Docker); PGlite is one process");
      this.skip();
    }
    opened = await openDatabase({ databaseUrl: url, dataDir: ":memory:" });
    await migrateToLatest(opened.knex);
  });
  after(async () => {
    for (const lease of leases) await lease.close();
    await opened?.close();
    await server?.release();
  });

  beforeEach(async function () {
    if (!url) this.skip();
    await database().knex.raw("DELETE FROM engine_leases");
  });

  function lease(): PostgresLeaderLease {
    const created = new PostgresLeaderLease({
      databaseUrl: url ?? "",
      queryTimeoutMs: 2000,
      logger: new MemoryLogger(),
    });
    leases.push(created);
    return created;
  }

  it("gives the lease to one holder, tells the other who holds it, and raises the token on takeover", async () => {
    const alpha = lease();
    const beta = lease();
    expect(await alpha.tryAcquire("alpha", 60_000)).to.deep.equal({ token: 1 });
    expect(await beta.tryAcquire("beta", 60_000)).to.deep.equal({ holder: "alpha" });
    expect(await alpha.renew(1, 60_000)).to.equal(true);
    await alpha.release(1);
    expect(await alpha.renew(1, 60_000)).to.equal(false);
    expect(await beta.tryAcquire("beta", 60_000)).to.deep.equal({ token: 2 });
    expect(await alpha.renew(1, 60_000)).to.equal(false);
  });

  it("lets a standby take over a lease that expired", async () => {
    const alpha = lease();
    const beta = lease();
    expect(await alpha.tryAcquire("alpha", 1)).to.deep.equal({ token: 1 });
    await database().knex.raw("SELECT pg_sleep(0.01)");
    expect(await beta.tryAcquire("beta", 60_000)).to.deep.equal({ token: 2 });
  });

  it("records each cron tick once, and none under a token that lost the lease", async () => {
    const ledger = new KnexCronFireLedger(database().knex);
    const alpha = lease();
    const tick = new Date("2026-03-01T10:01:00Z");
    expect(await alpha.tryAcquire("alpha", 60_000)).to.deep.equal({ token: 1 });
    expect(await ledger.claim("ticker#0", tick, 1)).to.equal(true);
    expect(await ledger.claim("ticker#0", tick, 1)).to.equal(false);
    expect((await ledger.lastFired("ticker#0"))?.toISOString()).to.equal(tick.toISOString());
    await alpha.release(1);
    expect(await ledger.claim("ticker#0", new Date("2026-03-01T10:02:00Z"), 1)).to.equal(false);
    expect(await ledger.lastFired("nobody")).to.equal(null);
  });

  it("writes a fenced document only while its token holds the lease", async () => {
    const alpha = lease();
    let token: number | null = null;
    const logger = new MemoryLogger();
    const store = new KnexJsonStore({ knex: database().knex, name: "fenced-state", logger, fence: () => token });
    await store.save({ count: 1 });
    expect(await store.load()).to.equal(undefined);
    token = 1;
    expect(await alpha.tryAcquire("alpha", 60_000)).to.deep.equal({ token: 1 });
    await store.save({ count: 2 });
    expect(await store.load()).to.deep.equal({ count: 2 });
    await alpha.release(1);
    await store.save({ count: 3 });
    expect(await store.load()).to.deep.equal({ count: 2 });
    expect(logger.at("warn").map((entry) => entry.msg)).to.have.length(2);
  });

  it("fails, rather than hangs, when the database cannot be reached", async () => {
    const unreachable = new PostgresLeaderLease({ databaseUrl: "postgres://nobody@127.0.0.1:1/none", queryTimeoutMs: 1000, logger: new MemoryLogger() });
    leases.push(unreachable);
    let failure: unknown;
    await unreachable.tryAcquire("alpha", 1000).catch((error: unknown) => {
      failure = error;
    });
    expect(failure).to.be.instanceOf(Error);
  });
});
