import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import type { FreezerItem } from "../../../domain/inventory/freezer-item.js";
import { eventItem, type InventoryEvent } from "../../../domain/inventory/inventory-event.js";
import { QuantityNotWholeError, quantityFitsUnit } from "../../../domain/inventory/item-unit.js";
import { NoCheckedEntriesError, renumber } from "../../../domain/inventory/shopping-list.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { HouseholdInput } from "../inventory-ports.js";
import { assertValidPlacement } from "../items/item-placement.js";
import { changedEntries } from "./shopping-list-events.js";
import type { ShoppingListPorts } from "./shopping-list-use-cases.js";

export interface StockCheckedEntriesInput extends HouseholdInput {
  freezerId: string;
  compartmentId: string;
  /** Expiry of every new item; default none. */
  expiresAt?: Date | null | undefined;
}

/** What stocking did: the items created, one per checked entry, in list order. */
export interface StockedEntries {
  items: FreezerItem[];
}

/**
 * After shopping: every checked entry becomes an item in one compartment (its name and
 * quantity; frozen now) and leaves the list, in one transaction: all of them or none. Each new
 * item is recorded as item creation records it (`item.created`), each entry's removal with
 * `shopping_list.removed` naming the item it became.
 */
export class StockCheckedEntries extends HouseholdUseCase<ShoppingListPorts> {
  async execute(input: StockCheckedEntriesInput): Promise<StockedEntries> {
    await this.access.requireMember(input.householdId, input.userId);
    await assertValidPlacement(this.ports.placements, input.householdId, input.freezerId, input.compartmentId);
    const now = this.ports.clock.now();
    // An entry's category may have been deleted since it was written: such items go uncategorised.
    const known = new Set<string>();
    for (const entry of await this.ports.shoppingList.list(input.householdId)) {
      if (entry.categoryId && (await this.ports.placements.categoryInHousehold(input.householdId, entry.categoryId)))
        known.add(entry.categoryId);
    }
    const event = householdEvents(this.ports, input, now);
    const written = await this.ports.shoppingList.change(input.householdId, (entries) => {
      const checked = entries.filter((entry) => entry.checked);
      if (checked.length === 0) throw new NoCheckedEntriesError();
      // Entries written before they had to be whole would become items the item API refuses to
      // edit (and an export that cannot be imported); the member corrects the entry instead.
      const fraction = checked.find((entry) => !quantityFitsUnit(entry.quantity, entry.unit));
      if (fraction) {
        throw new QuantityNotWholeError(
          fraction.unit,
          "quantity",
          `${fraction.name} is on the list as ${fraction.quantity} ${fraction.unit}; quantities in ${fraction.unit} are whole numbers: correct the entry, then put the shopping away`,
        );
      }
      const items: FreezerItem[] = [];
      const events: InventoryEvent[] = [];
      for (const entry of checked) {
        const item: FreezerItem = {
          id: this.ports.ids.next(),
          householdId: input.householdId,
          freezerId: input.freezerId,
          compartmentId: input.compartmentId,
          name: entry.name,
          quantity: entry.quantity,
          unit: entry.unit,
          categoryId: entry.categoryId !== null && known.has(entry.categoryId) ? entry.categoryId : null,
          notes: null,
          barcode: null,
          storedAt: now,
          expiresAt: input.expiresAt ?? null,
          deletedAt: null,
          createdAt: now,
          updatedAt: now,
          createdById: input.userId,
          updatedById: input.userId,
        };
        items.push(item);
        events.push(event("item.created", { item: eventItem(item) }));
        events.push(
          event("shopping_list.removed", { entryId: entry.id, name: entry.name, stocked: { itemId: item.id } }),
        );
      }
      const rest = entries.filter((entry) => !entry.checked);
      return {
        items,
        remove: checked.map((entry) => entry.id),
        save: changedEntries(rest, renumber(rest)),
        events,
        result: { items },
      };
    });
    if (!written) throw new NotHouseholdMemberError();
    return written.result;
  }
}
