import { householdEvents } from "../household-events.js";
import { type FreezerItemView, isArchived, nextChangeTime } from "../../../domain/inventory/freezer-item.js";
import { ItemAlreadyArchivedError, ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { eventItem } from "../../../domain/inventory/inventory-event.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPorts } from "./item-use-cases.js";

/** Soft-deletes an active item into the archive (deletedAt = now). */
export class ArchiveItem extends HouseholdUseCase<Pick<ItemPorts, "items" | "clock" | "ids">> {
  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    await this.access.requireMember(input.householdId, input.userId);
    const archived = await this.ports.items.update(input.householdId, input.itemId, (current) => {
      if (isArchived(current)) throw new ItemAlreadyArchivedError();
      const at = nextChangeTime(this.ports.clock.now(), current);
      const item = { ...current, deletedAt: at, updatedAt: at, updatedById: input.userId };
      const event = householdEvents(this.ports, input, at);
      return { item, changes: [], events: [event("item.archived", { item: eventItem(item), reason: "archived" })] };
    });
    if (!archived) throw new ItemNotFoundError();
    return archived;
  }
}
