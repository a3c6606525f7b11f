import { expect } from "chai";
import type { Knex } from "knex";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { ItemListCache } from "../../../src/adapters/persistence/item-list-cache.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import type { ItemListQuery } from "../../../src/ports/item-repository.js";
import { type ItemWorld, itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

interface Writer {
  /** What the write does, for the test title. */
  what: string;
  /** Performs it through `other` (a second repository without a cache, as another process) or plain SQL. */
  run(context: { other: KnexItemRepository; knex: Knex; world: ItemWorld; itemId: string }): Promise<void>;
}

// Every way the listed page can change; each must retire the cached page at once.
const writers: Writer[] = [
  {
    what: "an item created elsewhere",
    run: ({ other, world }) => other.create(itemIn(world, { name: "Peas too" })).then(() => undefined),
  },
  { what: "a bulk insert", run: ({ other, world }) => other.insertMany([itemIn(world, { name: "Bulk peas" })]) },
  {
    what: "a rename through update()",
    run: async ({ other, world, itemId }) => {
      await other.update(world.home.householdId, itemId, (current) => ({
        item: { ...current, name: "Garden peas" },
        changes: [],
      }));
    },
  },
  {
    what: "archiving",
    run: async ({ other, world, itemId }) => {
      await other.update(world.home.householdId, itemId, (current) => ({
        item: { ...current, deletedAt: new Date() },
        changes: [],
      }));
    },
  },
  {
    what: "a permanent delete",
    run: async ({ other, world, itemId }) => {
      await other.deletePermanently(world.home.householdId, itemId, () => {});
    },
  },
  {
    what: "a hand-written UPDATE",
    run: ({ knex, itemId }) => knex("freezer_items").where({ id: itemId }).update({ quantity: 9 }),
  },
  {
    what: "renaming the item's creator",
    run: ({ knex, world }) => knex("users").where({ id: world.users.alice.id }).update({ name: "Alice B." }),
  },
  {
    what: "deleting the household",
    run: ({ knex, world }) => knex("households").where({ id: world.home.householdId }).delete(),
  },
];

interface OpenedDatabases {
  database: Database;
  second: Database;
  release(): Promise<void>;
}

/** Opens the databases a suite runs on, or null (with the reason printed) when they cannot be had here. */
type Opener = () => Promise<OpenedDatabases | null>;

function describeItemListCache(label: string, open: Opener) {
  describe(`item list cache over ${label}`, () => {
    let database: Database;
    let second: Database;
    let release: () => Promise<void>;
    let world: ItemWorld;
    let cached: KnexItemRepository;
    let other: KnexItemRepository;
    let itemId: string;
    const statements: string[] = [];

    before(async function () {
      this.timeout(60_000);
      const opened = await open();
      if (!opened) return this.skip();
      ({ database, second, release } = opened);
      await migrateToLatest(database.knex);
      database.knex.on("query", (query: { sql: string }) => statements.push(query.sql));
    });
    after(async () => {
      await release?.();
    });

    beforeEach(async () => {
      world = makeWorld();
      await seedWorld(database.knex, world);
      cached = new KnexItemRepository(database.knex, { listCache: new ItemListCache(100) });
      other = new KnexItemRepository(second.knex);
      const item = itemIn(world, { name: "Peas" });
      itemId = item.id;
      await other.create(item);
      statements.length = 0;
    });

    const query = (): ItemListQuery => ({ householdId: world.home.householdId, search: "pea", page: 1, limit: 20 });
    const snapshot = async () => JSON.stringify(await cached.list(query()));
    const fresh = async () => JSON.stringify(await new KnexItemRepository(second.knex).list(query()));

    it("answers a repeated list with one revision read and no list query", async () => {
      const first = await snapshot();
      const queriesForFirst = statements.length;
      expect(await snapshot()).to.equal(first);
      expect(statements.length - queriesForFirst).to.equal(1);
      expect(statements.at(-1)).to.match(/household_item_counters/);
    });

    it("answers a member's repeated list with one statement that reads membership and revision", async () => {
      const first = JSON.stringify(await cached.listForMember(world.users.alice.id, query()));
      const queriesForFirst = statements.length;
      expect(JSON.stringify(await cached.listForMember(world.users.alice.id, query()))).to.equal(first);
      expect(statements.length - queriesForFirst).to.equal(1);
      expect(statements.at(-1))
        .to.match(/memberships/)
        .and.to.match(/household_item_counters/);
    });

    it("reads a member's uncached page with its membership, revision and total in one statement", async () => {
      for (const listQuery of [query(), { householdId: world.home.householdId, page: 1, limit: 20 }]) {
        const before = statements.length;
        const page = await cached.listForMember(world.users.alice.id, listQuery);
        expect(statements.length - before, JSON.stringify(listQuery)).to.equal(1);
        expect(page?.items.map((item) => item.name)).to.deep.equal(["Peas"]);
        expect(page?.total).to.equal(1);
        // Filed under the revision read with it: the next read is a revision check alone.
        const again = statements.length;
        expect(await cached.listForMember(world.users.alice.id, listQuery)).to.deep.equal(page);
        expect(statements.length - again).to.equal(1);
      }
    });

    it("reads one item, and one item's history, for a member in one statement each", async () => {
      for (const read of [
        () => cached.findForMember({ userId: world.users.alice.id, householdId: world.home.householdId, itemId }),
        () =>
          cached.historyForMember({
            userId: world.users.alice.id,
            householdId: world.home.householdId,
            itemId,
          }),
      ]) {
        const before = statements.length;
        expect((await read())?.found).to.not.equal(undefined);
        expect(statements.length - before).to.equal(1);
      }
    });

    it("answers a non-member of an uncached page with nothing, in one statement", async () => {
      const before = statements.length;
      expect(await cached.listForMember(`stranger-${world.users.alice.id}`, query())).to.equal(undefined);
      expect(statements.length - before).to.equal(1);
    });

    it("answers a non-member with nothing, in one statement, even when the page is cached", async () => {
      await cached.listForMember(world.users.alice.id, query());
      const before = statements.length;
      expect(await cached.listForMember(`stranger-${world.users.alice.id}`, query())).to.equal(undefined);
      expect(statements.length - before).to.equal(1);
    });

    for (const writer of writers) {
      it(`shows ${writer.what} on the next list`, async () => {
        await snapshot();
        await writer.run({ other, knex: second.knex, world, itemId });
        expect(await snapshot()).to.equal(await fresh());
      });
    }

    it("keeps other households' pages when one household changes", async () => {
      const away: ItemListQuery = { householdId: world.away.householdId, page: 1, limit: 20 };
      await other.create(
        itemIn(world, {
          householdId: world.away.householdId,
          freezerId: world.away.freezerId,
          compartmentId: world.away.compartmentId,
        }),
      );
      await cached.list(away);
      await other.create(itemIn(world, { name: "More peas" }));
      const before = statements.length;
      await cached.list(away);
      expect(statements.length - before).to.equal(1);
    });
  });
}

describeItemListCache("PGlite", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  // PGlite is one connection in one process: the "other process" shares it.
  return { database, second: database, release: () => database.close() };
});

describeItemListCache("PostgreSQL (two connection pools)", async () => {
  const server: TestDatabase = await acquireDatabase("item list cache");
  if (server.kind !== "postgres") {
    // Two pools need a server two clients can reach; the embedded fallback is one in-process
    // PGlite per handle, which the PGlite suite above already covers with a shared connection.
    console.log(
      "      [test-servers] SKIPPED item list cache over PostgreSQL: no PostgreSQL server (set TEST_DATABASE_URL or run Docker)",
    );
    await server.release();
    return null;
  }
  const database = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
  const second = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
  return {
    database,
    second,
    release: async () => {
      await second.close();
      await database.close();
      await server.release();
    },
  };
});
