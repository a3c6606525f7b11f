import { createServer, type Server, type Socket, connect } from "node:net";
import { expect } from "chai";
import { Leadership } from "../../../src/application/automation/leadership.js";
import { waitFor } from "../../support/network.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { KnexCronFireLedger } from "../../../src/adapters/persistence/knex-cron-fire-ledger.js";
import { KnexJsonStore } from "../../../src/adapters/persistence/knex-json-store.js";
import { PostgresLeaderLease } from "../../../src/adapters/persistence/postgres-leader-lease.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";
import { FakeTime } from "../../support/engine-fakes.js";

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
      console.warn(
        "      SKIPPED LOUDLY: the engine lease needs PostgreSQL (TEST_DATABASE_URL or Docker); PGlite is one process",
      );
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

  it("prunes old ticks but keeps each job's latest", async () => {
    const ledger = new KnexCronFireLedger(database().knex);
    const alpha = lease();
    const { token } = (await alpha.tryAcquire("alpha", 60_000)) as { token: number };
    await ledger.claim("weekly#0", new Date("2026-01-05T08:00:00Z"), token);
    await ledger.claim("hourly#0", new Date("2026-01-05T08:00:00Z"), token);
    await ledger.claim("hourly#0", new Date("2026-03-01T09:00:00Z"), token);
    expect(await ledger.prune(new Date("2026-02-01T00:00:00Z"))).to.equal(1);
    expect((await ledger.lastFired("weekly#0"))?.toISOString()).to.equal("2026-01-05T08:00:00.000Z");
    expect((await ledger.lastFired("hourly#0"))?.toISOString()).to.equal("2026-03-01T09:00:00.000Z");
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
    expect(logger.at("debug").map((entry) => entry.msg)).to.deep.equal(["Not saved: this instance is a standby"]);
    expect(logger.at("warn").map((entry) => entry.msg)).to.deep.equal([
      "Not saved: this instance no longer holds the engine lease",
    ]);
  });

  it("a leader that loses its database connection stops before a standby starts", async () => {
    const target = new URL(url ?? "");
    const proxy = await tcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(target.toString());
    proxied.hostname = "127.0.0.1";
    proxied.port = String(proxy.port);
    const events: string[] = [];
    const leadership = (name: string, databaseUrl: string) => {
      const lease = new PostgresLeaderLease({ databaseUrl, queryTimeoutMs: 200, logger: new MemoryLogger() });
      leases.push(lease);
      return new Leadership({
        lease,
        instance: name,
        ttlMs: 800,
        renewMs: 200,
        logger: new MemoryLogger(),
        onPromote: async () => {
          events.push(`${name} promoted`);
        },
        onDemote: async () => {
          events.push(`${name} demoted`);
        },
      });
    };
    const alpha = leadership("alpha", proxied.toString());
    const beta = leadership("beta", url ?? "");
    try {
      await alpha.start();
      await beta.start();
      expect(events).to.deep.equal(["alpha promoted"]);
      proxy.cut();
      await waitFor("beta to take over", () => events.includes("beta promoted"), 15_000);
      expect(events).to.deep.equal(["alpha promoted", "alpha demoted", "beta promoted"]);
    } finally {
      await alpha.stop();
      await beta.stop();
      proxy.close();
    }
  });

  it("renews a lease that expired with nobody taking it, and never one taken over or released", async () => {
    const alpha = lease();
    const beta = lease();
    expect(await alpha.tryAcquire("alpha", 60_000)).to.deep.equal({ token: 1 });
    await database().knex.raw("UPDATE engine_leases SET expires_at = now() - interval '5 seconds'");
    expect(await alpha.renew(1, 60_000), "late, not lost").to.equal(true);
    await database().knex.raw("UPDATE engine_leases SET expires_at = now() - interval '5 seconds'");
    expect(await beta.tryAcquire("beta", 60_000)).to.deep.equal({ token: 2 });
    expect(await alpha.renew(1, 60_000), "taken over").to.equal(false);
    await beta.release(2);
    expect(await beta.renew(2, 60_000), "released").to.equal(false);
  });

  /**
   * A stall is staged without sleeping: the processes' clock (a fake one) jumps past the
   * lease without firing timers, and the row is aged by as much on the database's clock.
   */
  describe("a leader that stalls past its lease", () => {
    const time = new FakeTime();
    const events: string[] = [];
    const logger = new MemoryLogger();
    const running: Leadership[] = [];
    const leadership = (name: string) => {
      const created = new Leadership({
        lease: lease(),
        instance: name,
        ttlMs: 3000,
        renewMs: 1000,
        logger,
        timer: time,
        now: () => time.now().getTime(),
        onPromote: async (token) => {
          events.push(`${name} promoted (token ${token})`);
        },
        onDemote: async () => {
          events.push(`${name} demoted`);
        },
      });
      running.push(created);
      return created;
    };
    const stall = async (ms: number) => {
      time.stall(ms);
      await database().knex.raw("UPDATE engine_leases SET expires_at = expires_at - ? * interval '1 millisecond'", [
        ms,
      ]);
    };
    const row = async () =>
      (
        await database().knex.raw<{ rows: { token: number; live: boolean }[] }>(
          "SELECT token, expires_at > now() AS live FROM engine_leases WHERE name = 'engine'",
        )
      ).rows[0];
    beforeEach(() => {
      events.length = 0;
      running.length = 0;
    });
    afterEach(async () => {
      for (const instance of running) await instance.stop();
    });

    it("keeps leading with nobody else: no stop, no restart, the same token", async () => {
      const alpha = leadership("alpha");
      await alpha.start();
      await stall(5000);
      expect(await row()).to.deep.equal({ token: 1, live: false });
      expect(alpha.currentToken(), "acts under no token until the database answers").to.equal(null);
      time.advance(0);
      await waitFor("the lease confirmed", () => alpha.currentToken() === 1, 10_000);
      expect(events).to.deep.equal(["alpha promoted (token 1)"]);
      expect(await row()).to.deep.equal({ token: 1, live: true });
      expect(logger.at("warn").map((entry) => entry.msg)).to.include(
        "The engine lease was renewed 3000 ms after it ran out on this process's clock (a stall); nobody took it over, so this instance stays leader",
      );
    });

    it("steps down when another instance took the lease meanwhile, and its fenced writes are refused", async () => {
      const ledger = new KnexCronFireLedger(database().knex);
      const alpha = leadership("alpha");
      const beta = leadership("beta");
      await alpha.start();
      await stall(5000);
      await beta.start();
      expect(beta.currentToken()).to.equal(2);
      expect(alpha.currentToken(), "never two leaders acting").to.equal(null);
      expect(await ledger.claim("tick", new Date(), 1), "a tick under the old token").to.equal(false);
      time.advance(0);
      await waitFor("alpha to step down", () => events.includes("alpha demoted"), 10_000);
      expect(events).to.deep.equal(["alpha promoted (token 1)", "beta promoted (token 2)", "alpha demoted"]);
      expect(alpha.role).to.equal("standby");
      expect(beta.currentToken()).to.equal(2);
      expect(await row()).to.deep.equal({ token: 2, live: true });
    });
  });

  it("fails, rather than hangs, when the database cannot be reached", async () => {
    const unreachable = new PostgresLeaderLease({
      databaseUrl: "postgres://nobody@127.0.0.1:1/none",
      queryTimeoutMs: 1000,
      logger: new MemoryLogger(),
    });
    leases.push(unreachable);
    let failure: unknown;
    await unreachable.tryAcquire("alpha", 1000).catch((error: unknown) => {
      failure = error;
    });
    expect(failure).to.be.instanceOf(Error);
  });
});

/** A TCP relay to PostgreSQL whose connections can be cut, as a failed network would. */
async function tcpProxy(host: string, port: number): Promise<{ port: number; cut(): void; close(): void }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    close() {
      server.close();
    },
  };
}
