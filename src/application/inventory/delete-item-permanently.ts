import { isArchived } from "../../domain/inventory/freezer-item.js";
import { ItemNotArchivedError, ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** Removes an archived item and its history for good; active items must be archived first. */
export class DeleteItemPermanently {
  constructor(private readonly items: ItemRepository) {}

  async execute(input: { householdId: string; itemId: string }): Promise<void> {
    const deleted = await this.items.deletePermanently(input.householdId, input.itemId, (current) => {
      if (!isArchived(current)) throw new ItemNotArchivedError();
    });
    if (!deleted) throw new ItemNotFoundError();
  }
}
