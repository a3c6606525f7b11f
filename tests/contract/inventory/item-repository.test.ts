import { ItemListCache } from "../../../src/adapters/persistence/item-list-cache.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { MemoryItemRepository } from "../../../src/adapters/persistence/memory-item-repository.js";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";
import { MemoryWorld, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { describeItemRepositoryContract } from "./item-repository.contract.js";

describeItemRepositoryContract("memory", async () => {
  const world = makeWorld();
  const memory = new MemoryWorld(world);
  return { repository: new MemoryItemRepository(memory, memory), world };
});

describe("knex on PGlite", () => {
  let database: Database;
  before(async () => {
    database = await openDatabase({ dataDir: ":memory:" });
    await migrateToLatest(database.knex);
  });
  after(async () => {
    await database.close();
  });
  describeItemRepositoryContract("knex + PGlite", async () => {
    const world = makeWorld();
    await seedWorld(database.knex, world);
    return { repository: new KnexItemRepository(database.knex), world };
  });
});

describe("knex on PostgreSQL", () => {
  let server: TestDatabase;
  let database: Database;
  before(async function () {
    this.timeout(60_000);
    server = await acquireDatabase("item repository contract");
    database = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
    await migrateToLatest(database.knex);
  });
  after(async () => {
    await database?.close();
    await server?.release();
  });
  // Through the list cache, as the app runs it; PGlite above covers the uncached path.
  describeItemRepositoryContract(`knex + ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "acquired database"} + list cache`, async () => {
    const world = makeWorld();
    await seedWorld(database.knex, world);
    return { repository: new KnexItemRepository(database.knex, { listCache: new ItemListCache(100) }), world };
  });
});
