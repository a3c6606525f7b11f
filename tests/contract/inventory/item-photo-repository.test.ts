import type { Knex } from "knex";
import { ItemListCache } from "../../../src/adapters/persistence/item-list-cache.js";
import { KnexItemPhotoRepository } from "../../../src/adapters/persistence/knex-item-photo-repository.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { MemoryItemPhotoRepository } from "../../../src/adapters/persistence/memory-item-photo-repository.js";
import { MemoryItemRepository } from "../../../src/adapters/persistence/memory-item-repository.js";
import { MemoryWorld, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";
import { describeItemPhotoRepositoryContract } from "./item-photo-repository.contract.js";

describeItemPhotoRepositoryContract("memory", async () => {
  const world = makeWorld();
  const memory = new MemoryWorld(world);
  const items = new MemoryItemRepository(memory, memory, memory);
  const photos = new MemoryItemPhotoRepository(items, memory);
  items.deleteCascades.push((itemId) => photos.forget(itemId));
  return {
    items,
    photos,
    world,
    storedPhotos: async (itemId) => (photos.displayOf(itemId) ? 1 : 0),
  };
});

async function knexHarness(knex: Knex, listCache?: ItemListCache) {
  const world = makeWorld();
  await seedWorld(knex, world);
  const items = new KnexItemRepository(knex, listCache ? { listCache } : {});
  return {
    items,
    photos: new KnexItemPhotoRepository(knex, items),
    world,
    storedPhotos: async (itemId: string) =>
      Number((await knex("item_photos").where({ item_id: itemId }).count({ n: "*" }))[0]?.n ?? 0),
  };
}

describe("item photos on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  describeItemPhotoRepositoryContract("knex + PGlite", () => knexHarness(database().knex));
});

describe("item photos on PostgreSQL", () => {
  const database = useMigratedDatabase({ acquired: "item photo repository contract" });
  describeItemPhotoRepositoryContract("knex + PostgreSQL + list cache", () =>
    knexHarness(database().knex, new ItemListCache(100)),
  );
});
