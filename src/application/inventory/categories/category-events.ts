import type { InventoryEventCategory } from "../../../domain/inventory/inventory-event.js";
import type { ItemCategory } from "../../../domain/inventory/item-category.js";

/** A category as its events carry it. */
export function eventCategory(category: ItemCategory): InventoryEventCategory {
  return { categoryId: category.id, key: category.key, name: category.name, position: category.position };
}
