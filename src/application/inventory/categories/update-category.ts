import {
  CategoryNameTakenError,
  CategoryNotFoundError,
  type ItemCategory,
} from "../../../domain/inventory/item-category.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";
import { eventCategory } from "./category-events.js";

export interface UpdateCategoryInput extends HouseholdInput {
  categoryId: string;
  name?: string | undefined;
  position?: number | undefined;
}

/**
 * The owner renames or reorders a category. A default that gets a new name is no longer that
 * default: its key goes, and apps show the name as written.
 */
export class UpdateCategory extends HouseholdUseCase<Pick<InventoryPorts, "categories" | "ids" | "clock">> {
  async execute(input: UpdateCategoryInput): Promise<ItemCategory> {
    await this.access.requireOwner(input.householdId, input.userId);
    const current = await this.ports.categories.find(input.householdId, input.categoryId);
    if (!current) throw new CategoryNotFoundError();
    const name = input.name?.trim() ?? current.name;
    const renamed = name !== current.name;
    const position = input.position ?? current.position;
    if (!renamed && position === current.position) return current;
    const now = this.ports.clock.now();
    const category: ItemCategory = { ...current, name, key: renamed ? null : current.key, position, updatedAt: now };
    const event = householdEvents(this.ports, input, now);
    const written = await this.ports.categories.update(category, [
      event("category.updated", { category: eventCategory(category) }),
    ]);
    if (written === "name-taken") throw new CategoryNameTakenError(name);
    if (written === "not-found") throw new CategoryNotFoundError();
    return category;
  }
}
