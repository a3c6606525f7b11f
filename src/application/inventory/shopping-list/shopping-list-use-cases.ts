import { type Clock, monotonicClock } from "../../../ports/clock.js";
import type { IdGenerator } from "../../../ports/id-generator.js";
import type { ItemPlacementLookup } from "../../../ports/item-placement.js";
import type { ItemRepository } from "../../../ports/item-repository.js";
import type { ShoppingListRepository } from "../../../ports/shopping-list-repository.js";
import type { HouseholdAccess } from "../household-access.js";
import { AddShoppingListEntry } from "./add-shopping-list-entry.js";
import { ListShoppingList } from "./list-shopping-list.js";
import { RemoveShoppingListEntry } from "./remove-shopping-list-entry.js";
import { StockCheckedEntries } from "./stock-checked-entries.js";
import { UpdateShoppingListEntry } from "./update-shopping-list-entry.js";

export interface ShoppingListPorts {
  shoppingList: ShoppingListRepository;
  /** Where an entry added from an item reads the item (and, for a weight or volume, what it held). */
  items: Pick<ItemRepository, "findById" | "history">;
  /** Where stocking checks the target freezer and compartment. */
  placements: ItemPlacementLookup;
  ids: IdGenerator;
  clock: Clock;
}

/** Every shopping-list use case, over one set of ports and the household access policy. */
export function createShoppingListUseCases(given: ShoppingListPorts, access: HouseholdAccess) {
  // As the item use cases: times of this process's writes follow the order of the writes.
  const ports: ShoppingListPorts = { ...given, clock: monotonicClock(given.clock) };
  return {
    listShoppingList: new ListShoppingList(ports, access),
    addShoppingListEntry: new AddShoppingListEntry(ports, access),
    updateShoppingListEntry: new UpdateShoppingListEntry(ports, access),
    removeShoppingListEntry: new RemoveShoppingListEntry(ports, access),
    stockCheckedEntries: new StockCheckedEntries(ports, access),
  };
}

export type ShoppingListUseCases = ReturnType<typeof createShoppingListUseCases>;
