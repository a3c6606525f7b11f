import type { ShoppingListEntry } from "../../domain/inventory/shopping-list.js";
import { inListOrder } from "../../domain/inventory/shopping-list.js";
import type { ShoppingListChanger, ShoppingListRepository } from "../../ports/shopping-list-repository.js";
import type { MemoryInventoryStore } from "./memory-inventory-store.js";

/**
 * Shopping lists in process memory, for unit and contract tests and the in-memory API. A change
 * runs synchronously between awaits, which is what the SQL adapter's household lock gives.
 */
export class MemoryShoppingListRepository implements ShoppingListRepository {
  private readonly entries = new Map<string, ShoppingListEntry>();

  constructor(private readonly store: MemoryInventoryStore) {}

  async list(householdId: string): Promise<ShoppingListEntry[]> {
    return this.copies(householdId);
  }

  async change<T>(householdId: string, changer: ShoppingListChanger<T>): Promise<{ result: T } | undefined> {
    const changed = this.changeNow(householdId, changer);
    if (!changed) return undefined;
    await changed.stocked;
    return { result: changed.result };
  }

  /**
   * The change, read, computed and written without an await in between, so no other change can
   * interleave (and an import can apply it together with its own writes); `stocked` settles once
   * the items it stocks are in.
   */
  changeNow<T>(
    householdId: string,
    changer: ShoppingListChanger<T>,
  ): { result: T; stocked: Promise<unknown> } | undefined {
    if (!this.store.households.has(householdId)) return undefined;
    const change = changer(this.copies(householdId));
    if (change.items?.length && !this.store.items) {
      throw new Error("The in-memory shopping list needs the items repository to stock entries");
    }
    // insertMany's body runs synchronously when called; awaited by the caller after the rest is written.
    const stocked = change.items?.length ? this.store.items?.insertMany(change.items) : undefined;
    for (const id of change.remove ?? []) {
      if (this.entries.get(id)?.householdId === householdId) this.entries.delete(id);
    }
    for (const entry of change.save ?? []) this.entries.set(entry.id, { ...entry });
    this.store.outbox.append(change.events);
    return { result: change.result, stocked: Promise.resolve(stocked) };
  }

  /** Removes a deleted household's entries (the table's cascade). */
  deleteHousehold(householdId: string): void {
    for (const [id, entry] of this.entries) if (entry.householdId === householdId) this.entries.delete(id);
  }

  /** The household's entries in list order, as copies (callers never mutate stored rows). */
  private copies(householdId: string): ShoppingListEntry[] {
    return inListOrder([...this.entries.values()].filter((entry) => entry.householdId === householdId)).map(
      (entry) => ({ ...entry }),
    );
  }
}
