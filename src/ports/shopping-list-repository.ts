import type { FreezerItem } from "../domain/inventory/freezer-item.js";
import type { InventoryEvent } from "../domain/inventory/inventory-event.js";
import type { ShoppingListEntry } from "../domain/inventory/shopping-list.js";

/**
 * What one write of a shopping list does, computed from the list as it is under the lock:
 * entries to insert or overwrite (moved entries included), entries to remove, items to create
 * (stocking after shopping), the events to record, and what the caller gets back.
 */
export interface ShoppingListChange<T> {
  save?: ShoppingListEntry[];
  remove?: string[];
  items?: FreezerItem[];
  events?: InventoryEvent[];
  result: T;
}

/**
 * Computes a change from the household's current entries (in list order); may throw a
 * DomainError to write nothing. Must not have effects of its own.
 */
export type ShoppingListChanger<T> = (entries: ShoppingListEntry[]) => ShoppingListChange<T>;

/** A household's shared shopping list. Every read and write is scoped to one household. */
export interface ShoppingListRepository {
  /** The entries in list order (position); empty for an unknown household. */
  list(householdId: string): Promise<ShoppingListEntry[]>;
  /**
   * Runs `changer` on the household's entries while holding the household's list lock, so
   * concurrent writes of one list (two members reordering at once) run one after the other
   * and each sees the other's result; then writes its entries, items and events in one
   * transaction, all or nothing. Returns undefined (writing nothing) when the household does
   * not exist.
   */
  change<T>(householdId: string, changer: ShoppingListChanger<T>): Promise<{ result: T } | undefined>;
}

export const SHOPPING_LIST_REPOSITORY = Symbol("ShoppingListRepository");
