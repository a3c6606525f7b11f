import { CategoryNameTakenError, type ItemCategory } from "../../../domain/inventory/item-category.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";
import { eventCategory } from "./category-events.js";

export interface CreateCategoryInput extends HouseholdInput {
  name: string;
  position?: number | undefined;
}

/** The owner adds a category; its name must differ from the household's others (ignoring case). */
export class CreateCategory extends HouseholdUseCase<Pick<InventoryPorts, "categories" | "ids" | "clock">> {
  async execute(input: CreateCategoryInput): Promise<ItemCategory> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.ports.clock.now();
    const existing = await this.ports.categories.list(input.householdId);
    const category: ItemCategory = {
      id: this.ports.ids.next(),
      householdId: input.householdId,
      key: null,
      name: input.name.trim(),
      position: input.position ?? existing.reduce((highest, other) => Math.max(highest, other.position + 1), 0),
      createdAt: now,
      updatedAt: now,
    };
    const event = householdEvents(this.ports, input, now);
    const written = await this.ports.categories.insert(category, [
      event("category.created", { category: eventCategory(category) }),
    ]);
    if (written === "name-taken") throw new CategoryNameTakenError(category.name);
    return category;
  }
}
