import type { InventoryEventShoppingEntry } from "../../../domain/inventory/inventory-event.js";
import type { ShoppingListEntry } from "../../../domain/inventory/shopping-list.js";

/** The entry fields an event carries. */
export function eventEntry(entry: ShoppingListEntry): InventoryEventShoppingEntry {
  return {
    id: entry.id,
    name: entry.name,
    quantity: entry.quantity,
    unit: entry.unit,
    categoryId: entry.categoryId,
    checked: entry.checked,
    position: entry.position,
  };
}

/**
 * The entries of `next` to write: new ones and those whose fields or position differ from
 * `before` (compared by identity: placeEntry and renumber keep untouched entries as they were).
 */
export function changedEntries(before: readonly ShoppingListEntry[], next: readonly ShoppingListEntry[]) {
  const previous = new Set(before);
  return next.filter((entry) => !previous.has(entry));
}
