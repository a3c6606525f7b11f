import { applyItemPatch, type FreezerItemView, isArchived } from "../../../domain/inventory/freezer-item.js";
import { eventFactory, eventItem } from "../../../domain/inventory/inventory-event.js";
import { ItemArchivedError, ItemNotFoundError, NotEnoughLeftError } from "../../../domain/inventory/item-errors.js";
import { HouseholdUseCase } from "../household-access.js";
import {
  assertQuantityFitsUnit,
  convertQuantity,
  type ItemUnit,
  roundQuantity,
  UnitMismatchError,
} from "../../../domain/inventory/item-unit.js";
import type { ItemPorts } from "./item-use-cases.js";

export interface ConsumeItemInput {
  householdId: string;
  itemId: string;
  userId: string;
  quantity: number;
  /** The unit of `quantity`; default the item's. Converted within mass (g, kg) and volume (ml, l). */
  unit?: ItemUnit | undefined;
}

/**
 * Takes units out of an active item. The history gets the quantity change exactly as a PATCH
 * of `quantity` writes it; taking the last units archives the item as used up (quantity 0).
 */
export class ConsumeItem extends HouseholdUseCase<Pick<ItemPorts, "items" | "clock" | "ids">> {
  async execute(input: ConsumeItemInput): Promise<FreezerItemView> {
    await this.access.requireMember(input.householdId, input.userId);
    const newId = () => this.ports.ids.next();
    const consumed = await this.ports.items.update(input.householdId, input.itemId, (current) => {
      if (isArchived(current)) throw new ItemArchivedError();
      const unit = input.unit ?? current.unit;
      assertQuantityFitsUnit(input.quantity, unit);
      // "Take out 250 g of 1 kg": the amount is converted to the item's unit.
      const taken = convertQuantity(input.quantity, unit, current.unit);
      if (taken === undefined) throw new UnitMismatchError(unit, current.unit);
      if (taken > current.quantity) throw new NotEnoughLeftError(current.quantity, current.unit);
      // Floating-point units (0.3 - 0.1) are rounded so "all of it" really reaches zero.
      const remaining = Math.max(0, roundQuantity(current.quantity - taken));
      const update = applyItemPatch(
        current,
        { quantity: remaining },
        { by: input.userId, now: this.ports.clock.now(), newId },
      );
      const usedUp = remaining === 0;
      const item = usedUp ? { ...update.item, deletedAt: update.item.updatedAt } : update.item;
      const event = eventFactory({ householdId: input.householdId, userId: input.userId, at: item.updatedAt, newId });
      const events = [
        event("item.consumed", {
          item: eventItem(item),
          quantity: taken,
          remaining,
          taken: { quantity: input.quantity, unit },
        }),
      ];
      if (usedUp) events.push(event("item.archived", { item: eventItem(item), reason: "used_up" }));
      return { item, changes: update.changes, events };
    });
    if (!consumed) throw new ItemNotFoundError();
    return consumed;
  }
}
