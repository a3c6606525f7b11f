import { ItemListCache } from "../../../src/adapters/persistence/item-list-cache.js";
import { KnexCategoryRepository } from "../../../src/adapters/persistence/knex-category-repository.js";
import { KnexInventoryEventFeed } from "../../../src/adapters/persistence/knex-inventory-event-feed.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { MemoryCategoryRepository } from "../../../src/adapters/persistence/memory-category-repository.js";
import { MemoryInventoryStore } from "../../../src/adapters/persistence/memory-inventory-store.js";
import { MemoryItemRepository } from "../../../src/adapters/persistence/memory-item-repository.js";
import type { ItemWorld } from "../../support/item-fixtures.js";
import { MemoryWorld, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";
import { describeCategoryRepositoryContract } from "./category-repository.contract.js";

/** The world's categories in a memory store, as seedWorld writes them to SQL. */
function seedMemory(store: MemoryInventoryStore, world: ItemWorld): void {
  const at = new Date();
  const add = (id: string, householdId: string, name: string, position: number) =>
    store.categories.set(id, { id, householdId, key: null, name, position, createdAt: at, updatedAt: at });
  add(world.home.categoryIds[0], world.home.householdId, "Meat", 0);
  add(world.home.categoryIds[1], world.home.householdId, "Fish", 1);
  add(world.away.categoryId, world.away.householdId, "Meat", 0);
}

describeCategoryRepositoryContract("memory", async () => {
  const world = makeWorld();
  const memory = new MemoryWorld(world);
  const store = new MemoryInventoryStore();
  seedMemory(store, world);
  const items = new MemoryItemRepository(memory, memory, memory, store.outbox);
  store.uncategorise = (householdId, categoryId) => items.uncategorise(householdId, categoryId);
  return { categories: new MemoryCategoryRepository(store), items, feed: store.outbox, world };
});

describe("categories on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  describeCategoryRepositoryContract("knex + PGlite", async () => {
    const world = makeWorld();
    const knex = database().knex;
    await seedWorld(knex, world);
    return {
      categories: new KnexCategoryRepository(knex),
      items: new KnexItemRepository(knex),
      feed: new KnexInventoryEventFeed(knex),
      world,
    };
  });
});

describe("categories on PostgreSQL", () => {
  const database = useMigratedDatabase({ acquired: "category repository contract" });
  // Through the list cache: uncategorising items must move the household's list revision.
  describeCategoryRepositoryContract("knex + PostgreSQL + list cache", async () => {
    const world = makeWorld();
    const knex = database().knex;
    await seedWorld(knex, world);
    return {
      categories: new KnexCategoryRepository(knex),
      items: new KnexItemRepository(knex, { listCache: new ItemListCache(100) }),
      feed: new KnexInventoryEventFeed(knex),
      world,
    };
  });
});
