import { type FreezerItemView, isArchived, nextChangeTime } from "../../domain/inventory/freezer-item.js";
import { ItemNotFoundError, ItemNotInArchiveError } from "../../domain/inventory/item-errors.js";
import type { Clock } from "../../ports/clock.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** Brings an archived item back into the active list. */
export class RestoreItem {
  constructor(
    private readonly items: ItemRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    const restored = await this.items.update(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotInArchiveError();
      const at = nextChangeTime(this.clock.now(), current);
      return { item: { ...current, deletedAt: null, updatedAt: at, updatedById: input.userId }, changes: [] };
    });
    if (!restored) throw new ItemNotFoundError();
    return restored;
  }
}
