import { householdEvents } from "../household-events.js";
import { type FreezerItemView, isArchived, nextChangeTime } from "../../../domain/inventory/freezer-item.js";
import { ItemNotFoundError, ItemNotInArchiveError, ItemUsedUpError } from "../../../domain/inventory/item-errors.js";
import { eventItem } from "../../../domain/inventory/inventory-event.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPorts } from "./item-use-cases.js";

/** Brings an archived item back into the active list. */
export class RestoreItem extends HouseholdUseCase<Pick<ItemPorts, "items" | "clock" | "ids">> {
  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    await this.access.requireMember(input.householdId, input.userId);
    const restored = await this.ports.items.update(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotInArchiveError();
      if (current.quantity <= 0) throw new ItemUsedUpError();
      const at = nextChangeTime(this.ports.clock.now(), current);
      const item = { ...current, deletedAt: null, updatedAt: at, updatedById: input.userId };
      const event = householdEvents(this.ports, input, at);
      return { item, changes: [], events: [event("item.restored", { item: eventItem(item) })] };
    });
    if (!restored) throw new ItemNotFoundError();
    return restored;
  }
}
