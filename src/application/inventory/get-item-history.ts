import type { ChangeLogEntryView } from "../../domain/inventory/change-log-entry.js";
import { ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** An item's change log, newest first (entries of one change ordered by field name). */
export class GetItemHistory {
  constructor(private readonly items: ItemRepository) {}

  async execute(input: { householdId: string; itemId: string }): Promise<ChangeLogEntryView[]> {
    const item = await this.items.findById(input.householdId, input.itemId);
    if (!item) throw new ItemNotFoundError();
    return this.items.history(item.id);
  }
}
