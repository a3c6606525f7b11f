import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import type { ItemRepository } from "../../ports/item-repository.js";

/** The household's archive, most recently archived first. */
export class ListArchivedItems {
  constructor(private readonly items: ItemRepository) {}

  execute(input: { householdId: string }): Promise<FreezerItemView[]> {
    return this.items.listArchived(input.householdId);
  }
}
