import { type FreezerItemView, isArchived, nextChangeTime } from "../../domain/inventory/freezer-item.js";
import { ItemNotFoundError, ItemNotInArchiveError, ItemUsedUpError } from "../../domain/inventory/item-errors.js";
import { eventFactory, eventItem } from "../../domain/inventory/inventory-event.js";
import type { Clock } from "../../ports/clock.js";
import type { IdGenerator } from "../../ports/id-generator.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** Brings an archived item back into the active list. */
export class RestoreItem {
  constructor(
    private readonly items: ItemRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    const restored = await this.items.update(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotInArchiveError();
      if (current.quantity <= 0) throw new ItemUsedUpError();
      const at = nextChangeTime(this.clock.now(), current);
      const item = { ...current, deletedAt: null, updatedAt: at, updatedById: input.userId };
      const event = eventFactory({ householdId: input.householdId, userId: input.userId, at, newId: () => this.ids.next() });
      return { item, changes: [], events: [event("item.restored", { item: eventItem(item) })] };
    });
    if (!restored) throw new ItemNotFoundError();
    return restored;
  }
}
