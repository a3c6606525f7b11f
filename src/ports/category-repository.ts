import type { InventoryEvent } from "../domain/inventory/inventory-event.js";
import type { ItemCategory } from "../domain/inventory/item-category.js";

/** What a category write did: `name-taken` when another category of the household has the name. */
export type CategoryWrite = "written" | "name-taken" | "not-found";

/** A household's item categories. `events` go to the outbox in the same transaction as the change. */
export interface CategoryRepository {
  /** The household's categories ordered by position, then name. */
  list(householdId: string): Promise<ItemCategory[]>;
  /** The category when it belongs to the household, else null. */
  find(householdId: string, categoryId: string): Promise<ItemCategory | null>;
  insert(category: ItemCategory, events?: InventoryEvent[]): Promise<CategoryWrite>;
  /** Writes name, key, position and updatedAt of an existing category. */
  update(category: ItemCategory, events?: InventoryEvent[]): Promise<CategoryWrite>;
  /**
   * Deletes the category and uncategorises its items (active and archived) in one transaction;
   * `events` are built from how many items it held. null when there is no such category.
   */
  delete(
    householdId: string,
    categoryId: string,
    events: (itemCount: number) => InventoryEvent[],
  ): Promise<{ itemCount: number } | null>;
}

export const CATEGORY_REPOSITORY = Symbol("CategoryRepository");
