import { type FreezerItemView, isArchived, nextChangeTime } from "../../domain/inventory/freezer-item.js";
import { ItemNotFoundError, ItemNotInArchiveError } from "../../domain/inventory/item-errors.js";
import type { HouseholdAccess } from "./household-access.js";
import type { ItemPorts } from "./item-use-cases.js";

/** Brings an archived item back into the active list. */
export class RestoreItem {
  constructor(
    private readonly ports: Pick<ItemPorts, "items" | "clock">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: { householdId: string; itemId: string; userId: string }): Promise<FreezerItemView> {
    await this.access.requireMember(input.householdId, input.userId);
    const restored = await this.ports.items.update(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotInArchiveError();
      const at = nextChangeTime(this.ports.clock.now(), current);
      return { item: { ...current, deletedAt: null, updatedAt: at, updatedById: input.userId }, changes: [] };
    });
    if (!restored) throw new ItemNotFoundError();
    return restored;
  }
}
