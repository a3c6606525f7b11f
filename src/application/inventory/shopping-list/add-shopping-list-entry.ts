import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { ValidationError } from "../../../domain/shared/validation-error.js";
import { ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { assertQuantityFitsUnit, isMeasuredUnit, roundQuantity } from "../../../domain/inventory/item-unit.js";
import {
  defaultAmountFromItem,
  entryToAddTo,
  placeEntry,
  SHOPPING_LIST_MAX_ENTRIES,
  SHOPPING_QUANTITY_MAX,
  type ShoppingListEntry,
  ShoppingListFullError,
  type ShoppingUnit,
} from "../../../domain/inventory/shopping-list.js";
import { assertValidCategory } from "../items/item-placement.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { HouseholdInput } from "../inventory-ports.js";
import { changedEntries, eventEntry } from "./shopping-list-events.js";
import type { ShoppingListPorts } from "./shopping-list-use-cases.js";

export interface AddShoppingListEntryInput extends HouseholdInput {
  /** Required unless `fromItemId` names an item to take it from. */
  name?: string | undefined;
  /**
   * Default 1; with `fromItemId` and a weight or volume unit, the most the item held
   * (see defaultAmountFromItem).
   */
  quantity?: number | undefined;
  /** Default piece. */
  unit?: ShoppingUnit | undefined;
  categoryId?: string | null | undefined;
  /** Default false. */
  checked?: boolean | undefined;
  /** Where in the list (0 = top); default the bottom. */
  position?: number | undefined;
  /**
   * An item of the household (active or archived, typically the one just used up) whose name
   * the entry takes, unless given; "put on the shopping list" after taking the last one out.
   */
  fromItemId?: string | undefined;
}

/** What an addition did: a new line (`added`), or more of an entry already on the list. */
export interface AddedShoppingListEntry {
  entry: ShoppingListEntry;
  added: boolean;
}

/**
 * Puts an entry on the household's shopping list (at the bottom unless a position is given).
 * Something already on the list unchecked, by the same name (ignoring case and spaces at the
 * ends) in the same unit, gets the quantity added instead of a second line: two members who
 * both put milk on the list want one line that says how much.
 */
export class AddShoppingListEntry extends HouseholdUseCase<ShoppingListPorts> {
  async execute(input: AddShoppingListEntryInput): Promise<AddedShoppingListEntry> {
    await this.access.requireMember(input.householdId, input.userId);
    let name = input.name;
    let unit = input.unit;
    let categoryId = input.categoryId;
    let quantity = input.quantity;
    if (input.fromItemId !== undefined) {
      const item = await this.ports.items.findById(input.householdId, input.fromItemId);
      if (!item) throw new ItemNotFoundError();
      // "Put on the shopping list" after the last one: what the item was, unless said otherwise.
      name ??= item.name;
      unit ??= item.unit;
      if (categoryId === undefined) categoryId = item.categoryId;
      // Only a weight or a volume needs what the item held; its log is not read for the rest.
      if (quantity === undefined) {
        const history = isMeasuredUnit(unit) ? await this.ports.items.history(item.id) : [];
        quantity = defaultAmountFromItem(item, history, unit);
      }
    }
    await assertValidCategory(this.ports.placements, input.householdId, categoryId);
    if (name === undefined) {
      throw new ValidationError("Name the entry, or give fromItemId to take the name from an item", [
        { path: "name", message: "is required unless fromItemId is given" },
      ]);
    }
    // As for items: put away, 1.5 bags would be an item the item API refuses to edit.
    assertQuantityFitsUnit(quantity ?? 1, unit ?? "piece");
    const now = this.ports.clock.now();
    const entry: ShoppingListEntry = {
      id: this.ports.ids.next(),
      householdId: input.householdId,
      name,
      quantity: quantity ?? 1,
      unit: unit ?? "piece",
      categoryId: categoryId ?? null,
      checked: input.checked ?? false,
      position: 0,
      createdAt: now,
      updatedAt: now,
      createdById: input.userId,
      updatedById: input.userId,
    };
    const event = householdEvents(this.ports, input, now);
    const written = await this.ports.shoppingList.change(input.householdId, (entries) => {
      // Looked up under the list's lock: of two members adding at once, the later adds to the first's line.
      const existing = entry.checked ? undefined : entryToAddTo(entries, entry);
      if (existing) {
        const more = addTo(existing, entry, input.position, entries);
        return {
          save: changedEntries(entries, more.next),
          events: [event("shopping_list.updated", { entry: eventEntry(more.entry), changes: more.changes })],
          result: { entry: more.entry, added: false },
        };
      }
      if (entries.length >= SHOPPING_LIST_MAX_ENTRIES) throw new ShoppingListFullError(1);
      const next = placeEntry(entries, entry, input.position);
      const added = next.find((candidate) => candidate.id === entry.id) as ShoppingListEntry;
      return {
        save: changedEntries(entries, next),
        events: [event("shopping_list.added", { entry: eventEntry(added) })],
        result: { entry: added, added: true },
      };
    });
    // The household was deleted after the membership check.
    if (!written) throw new NotHouseholdMemberError();
    return written.result;
  }
}

/** `existing` holding the quantity of `addition` too, moved to `position` when one is given. */
function addTo(
  existing: ShoppingListEntry,
  addition: ShoppingListEntry,
  position: number | undefined,
  entries: readonly ShoppingListEntry[],
) {
  const quantity = roundQuantity(existing.quantity + addition.quantity);
  if (quantity > SHOPPING_QUANTITY_MAX) {
    throw new ValidationError(
      `${existing.name} is on the shopping list already; with this it would come to more than ${SHOPPING_QUANTITY_MAX}`,
      [
        {
          path: "quantity",
          message: `with the ${existing.quantity} on the list must be at most ${SHOPPING_QUANTITY_MAX}`,
        },
      ],
    );
  }
  const changes = ["quantity"];
  const updated: ShoppingListEntry = {
    ...existing,
    quantity,
    updatedAt: addition.updatedAt,
    updatedById: addition.updatedById,
  };
  const next = placeEntry(entries, updated, position ?? existing.position);
  const entry = next.find((candidate) => candidate.id === existing.id) as ShoppingListEntry;
  if (entry.position !== existing.position) changes.push("position");
  return { next, entry, changes };
}
