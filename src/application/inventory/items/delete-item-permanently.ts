import { householdEvents } from "../household-events.js";
import { isArchived } from "../../../domain/inventory/freezer-item.js";
import { ItemNotArchivedError, ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ItemPorts } from "./item-use-cases.js";

/** Removes an archived item and its history for good (owner only); active items must be archived first. */
export class DeleteItemPermanently extends HouseholdUseCase<Pick<ItemPorts, "items" | "clock" | "ids">> {
  async execute(input: HouseholdInput & { itemId: string }): Promise<void> {
    await this.access.requireOwner(input.householdId, input.userId);
    const deleted = await this.ports.items.deletePermanently(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotArchivedError();
      const event = householdEvents(this.ports, input);
      return [event("item.deleted", { itemId: current.id, name: current.name })];
    });
    if (!deleted) throw new ItemNotFoundError();
  }
}
