import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import { ItemNotFoundError } from "../../domain/inventory/item-errors.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** One item of the household, active or archived. */
export class GetItem {
  constructor(private readonly items: ItemRepository) {}

  async execute(input: { householdId: string; itemId: string }): Promise<FreezerItemView> {
    const item = await this.items.findById(input.householdId, input.itemId);
    if (!item) throw new ItemNotFoundError();
    return item;
  }
}
