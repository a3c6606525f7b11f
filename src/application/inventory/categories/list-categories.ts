import type { ItemCategory } from "../../../domain/inventory/item-category.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

/** The household's categories in display order, for every member. */
export class ListCategories extends HouseholdUseCase<Pick<InventoryPorts, "categories">> {
  async execute(input: HouseholdInput): Promise<ItemCategory[]> {
    await this.access.requireMember(input.householdId, input.userId);
    return this.ports.categories.list(input.householdId);
  }
}
