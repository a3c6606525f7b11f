import type { Knex } from "knex";
import { createItemsRouter, registerItemsOpenApi } from "../adapters/http/inventory/items-router.js";
import { ItemListCache } from "../adapters/persistence/item-list-cache.js";
import { KnexItemRepository } from "../adapters/persistence/knex-item-repository.js";
import type { MemoryInventoryStore } from "../adapters/persistence/memory-inventory-store.js";
import { MemoryItemRepository } from "../adapters/persistence/memory-item-repository.js";
import { placementsFromFreezers } from "../application/inventory/item-placement.js";
import { createItemUseCases } from "../application/inventory/item-use-cases.js";
import type { ItemRepository } from "../ports/item-repository.js";
import type { InventoryAreaContext, InventoryItemsArea } from "./inventory-api.js";

function itemsArea(context: InventoryAreaContext, items: ItemRepository): InventoryItemsArea {
  const useCases = createItemUseCases(
    {
      items,
      placements: placementsFromFreezers(context.ports.freezers),
      ids: context.ports.ids,
      clock: context.ports.clock,
    },
    context.access,
  );
  return { router: createItemsRouter({ useCases }), registerOpenApi: registerItemsOpenApi };
}

/**
 * The items area over knex (PostgreSQL or PGlite), for buildInventoryApi. `listCacheSize`
 * pages are kept for reuse while their household's items stay unchanged (0: none).
 */
export function knexItemsArea(
  knex: Knex,
  options: { listCacheSize?: number } = {},
): (context: InventoryAreaContext) => InventoryItemsArea {
  const listCache = new ItemListCache(options.listCacheSize ?? 0);
  return (context) => itemsArea(context, new KnexItemRepository(knex, { listCache }));
}

/**
 * The items area over memory, for buildMemoryInventoryApi. It plugs into the shared store
 * so freezer deletes see the items and household deletes remove them.
 */
export function memoryItemsArea(context: InventoryAreaContext & { store: MemoryInventoryStore }): InventoryItemsArea {
  const items = new MemoryItemRepository(context.ports.users, context.ports.households, context.store.outbox);
  context.store.items = items;
  context.store.itemsIn = (where) => items.hasItemsIn(where);
  context.store.householdCascades.push((householdId) => items.deleteHousehold(householdId));
  return itemsArea(context, items);
}
