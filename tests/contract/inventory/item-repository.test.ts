import { useMigratedDatabase } from "../../support/migrated-database.js";
import { ItemListCache } from "../../../src/adapters/persistence/item-list-cache.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { MemoryItemRepository } from "../../../src/adapters/persistence/memory-item-repository.js";
import { MemoryWorld, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { describeItemRepositoryContract } from "./item-repository.contract.js";

describeItemRepositoryContract("memory", async () => {
  const world = makeWorld();
  const memory = new MemoryWorld(world);
  return { repository: new MemoryItemRepository(memory, memory, memory), world };
});

describe("knex on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  describeItemRepositoryContract("knex + PGlite", async () => {
    const world = makeWorld();
    await seedWorld(database().knex, world);
    return { repository: new KnexItemRepository(database().knex), world };
  });
});

describe("knex on PostgreSQL", () => {
  const database = useMigratedDatabase({ acquired: "item repository contract" });
  // Through the list cache, as the app runs it; PGlite above covers the uncached path.
  describeItemRepositoryContract(
    `knex + ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "acquired database"} + list cache`,
    async () => {
      const world = makeWorld();
      await seedWorld(database().knex, world);
      return { repository: new KnexItemRepository(database().knex, { listCache: new ItemListCache(100) }), world };
    },
  );
});
