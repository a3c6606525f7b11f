import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { assertQuantityFitsUnit } from "../../../domain/inventory/item-unit.js";
import {
  placeEntry,
  type ShoppingListEntry,
  type ShoppingListEntryFields,
  ShoppingListEntryNotFoundError,
} from "../../../domain/inventory/shopping-list.js";
import { assertValidCategory } from "../items/item-placement.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { HouseholdInput } from "../inventory-ports.js";
import { changedEntries, eventEntry } from "./shopping-list-events.js";
import type { ShoppingListPorts } from "./shopping-list-use-cases.js";

export type ShoppingListEntryPatch = { [K in keyof ShoppingListEntryFields]?: ShoppingListEntryFields[K] | undefined };

export interface UpdateShoppingListEntryInput extends HouseholdInput, ShoppingListEntryPatch {
  entryId: string;
  /**
   * Moves the entry to this place (0 = top; past the end = bottom): the entries between its old
   * and new place shift by one to make room, keeping their order.
   */
  position?: number | undefined;
}

const FIELDS = [
  "name",
  "quantity",
  "unit",
  "categoryId",
  "checked",
] as const satisfies readonly (keyof ShoppingListEntryFields)[];

/** Changes an entry's fields (check it off, rename it, …) and/or moves it in the list. */
export class UpdateShoppingListEntry extends HouseholdUseCase<ShoppingListPorts> {
  async execute(input: UpdateShoppingListEntryInput): Promise<ShoppingListEntry> {
    await this.access.requireMember(input.householdId, input.userId);
    await assertValidCategory(this.ports.placements, input.householdId, input.categoryId);
    const now = this.ports.clock.now();
    const event = householdEvents(this.ports, input, now);
    const written = await this.ports.shoppingList.change(input.householdId, (entries) => {
      const current = entries.find((entry) => entry.id === input.entryId);
      if (!current) throw new ShoppingListEntryNotFoundError();
      const changes: string[] = FIELDS.filter((field) => input[field] !== undefined && input[field] !== current[field]);
      const moved = input.position !== undefined && placeEntry(entries, current, input.position);
      const movedTo = moved ? (moved.find((entry) => entry.id === current.id) as ShoppingListEntry).position : null;
      if (movedTo !== null && movedTo !== current.position) changes.push("position");
      if (changes.length === 0) return { result: current };
      const updated: ShoppingListEntry = { ...current, updatedAt: now, updatedById: input.userId };
      for (const field of FIELDS) {
        if (input[field] !== undefined) Object.assign(updated, { [field]: input[field] });
      }
      // Checked on the result: 1.5 kg turned into bags is as wrong as 1.5 bags.
      if (input.quantity !== undefined || input.unit !== undefined) {
        assertQuantityFitsUnit(updated.quantity, updated.unit, input.quantity === undefined ? "unit" : "quantity");
      }
      const next = placeEntry(entries, updated, movedTo ?? current.position);
      const result = next.find((entry) => entry.id === current.id) as ShoppingListEntry;
      return {
        save: changedEntries(entries, next),
        events: [event("shopping_list.updated", { entry: eventEntry(result), changes })],
        result,
      };
    });
    if (!written) throw new NotHouseholdMemberError();
    return written.result;
  }
}
