import { CategoryNotFoundError } from "../../../domain/inventory/item-category.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface DeleteCategoryInput extends HouseholdInput {
  categoryId: string;
}

/**
 * The owner removes a category. Its items (active and archived) stay, uncategorised
 * (categoryId null), in the same transaction; the event says how many there were.
 */
export class DeleteCategory extends HouseholdUseCase<Pick<InventoryPorts, "categories" | "ids" | "clock">> {
  async execute(input: DeleteCategoryInput): Promise<Confirmation & { itemsUncategorised: number }> {
    await this.access.requireOwner(input.householdId, input.userId);
    const event = householdEvents(this.ports, input);
    const deleted = await this.ports.categories.delete(input.householdId, input.categoryId, (itemCount) => [
      event("category.deleted", { categoryId: input.categoryId, itemCount }),
    ]);
    if (!deleted) throw new CategoryNotFoundError();
    const { itemCount } = deleted;
    return {
      message: `Category deleted; ${itemCount} item${itemCount === 1 ? "" : "s"} left without a category`,
      itemsUncategorised: itemCount,
    };
  }
}
