import { type FreezerItemView, isArchived, nextChangeTime } from "../../domain/inventory/freezer-item.js";
import { ItemAlreadyArchivedError, ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import { eventFactory, eventItem } from "../../domain/inventory/inventory-event.js";
import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** Soft-deletes an active item into the archive (deletedAt = now). */
export class ArchiveItem {
  constructor(
    private readonly items: ItemRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    const archived = await this.items.update(input.householdId, input.itemId, (current) => {
      if (isArchived(current)) throw new ItemAlreadyArchivedError();
      const at = nextChangeTime(this.clock.now(), current);
      const item = { ...current, deletedAt: at, updatedAt: at, updatedById: input.userId };
      const event = eventFactory({ householdId: input.householdId, userId: input.userId, at, newId: () => this.ids.next() });
      return { item, changes: [], events: [event("item.archived", { item: eventItem(item), reason: "archived" })] };
    });
    if (!archived) throw new ItemNotFoundError();
    return archived;
  }
}
