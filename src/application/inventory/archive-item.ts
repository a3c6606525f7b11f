import { type FreezerItemView, isArchived, nextChangeTime } from "../../domain/inventory/freezer-item.js";
import { ItemAlreadyArchivedError, ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import type { HouseholdAccess } from "./household-access.js";
import type { ItemPorts } from "./item-use-cases.js";

/** Soft-deletes an active item into the archive (deletedAt = now). */
export class ArchiveItem {
  constructor(
    private readonly ports: Pick<ItemPorts, "items" | "clock">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    await this.access.requireMember(input.householdId, input.userId);
    const archived = await this.ports.items.update(input.householdId, input.itemId, (current) => {
      if (isArchived(current)) throw new ItemAlreadyArchivedError();
      const at = nextChangeTime(this.ports.clock.now(), current);
      return { item: { ...current, deletedAt: at, updatedAt: at, updatedById: input.userId }, changes: [] };
    });
    if (!archived) throw new ItemNotFoundError();
    return archived;
  }
}
