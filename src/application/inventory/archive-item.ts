import { type FreezerItemView, isArchived, nextChangeTime } from "../../domain/inventory/freezer-item.js";
import { ItemAlreadyArchivedError, ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import type { Clock } from "../../ports/clock.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** Soft-deletes an active item into the archive (deletedAt = now). */
export class ArchiveItem {
  constructor(
    private readonly items: ItemRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    const archived = await this.items.update(input.householdId, input.itemId, (current) => {
      if (isArchived(current)) throw new ItemAlreadyArchivedError();
      const at = nextChangeTime(this.clock.now(), current);
      return { item: { ...current, deletedAt: at, updatedAt: at, updatedById: input.userId }, changes: [] };
    });
    if (!archived) throw new ItemNotFoundError();
    return archived;
  }
}
