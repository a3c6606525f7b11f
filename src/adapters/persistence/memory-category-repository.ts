import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { categoryNameKey, compareCategories, type ItemCategory } from "../../domain/inventory/item-category.js";
import type { CategoryRepository, CategoryWrite } from "../../ports/category-repository.js";
import { copy, type MemoryInventoryStore } from "./memory-inventory-store.js";

/** Item categories in process memory, with the database's unique name per household. */
export class MemoryCategoryRepository implements CategoryRepository {
  constructor(private readonly store: MemoryInventoryStore) {}

  async list(householdId: string): Promise<ItemCategory[]> {
    return [...this.store.categories.values()]
      .filter((category) => category.householdId === householdId)
      .sort(compareCategories)
      .map(copy);
  }

  async find(householdId: string, categoryId: string): Promise<ItemCategory | null> {
    const category = this.store.categories.get(categoryId);
    return category && category.householdId === householdId ? copy(category) : null;
  }

  async insert(category: ItemCategory, events?: InventoryEvent[]): Promise<CategoryWrite> {
    if (this.nameTaken(category)) return "name-taken";
    this.store.categories.set(category.id, copy(category));
    this.store.outbox.append(events);
    return "written";
  }

  async update(category: ItemCategory, events?: InventoryEvent[]): Promise<CategoryWrite> {
    const current = this.store.categories.get(category.id);
    if (!current || current.householdId !== category.householdId) return "not-found";
    if (this.nameTaken(category)) return "name-taken";
    this.store.categories.set(category.id, { ...copy(category), createdAt: current.createdAt });
    this.store.outbox.append(events);
    return "written";
  }

  async delete(
    householdId: string,
    categoryId: string,
    events: (itemCount: number) => InventoryEvent[],
  ): Promise<{ itemCount: number } | null> {
    const current = this.store.categories.get(categoryId);
    if (!current || current.householdId !== householdId) return null;
    const itemCount = this.store.uncategorise(householdId, categoryId);
    this.store.categories.delete(categoryId);
    this.store.outbox.append(events(itemCount));
    return { itemCount };
  }

  private nameTaken(category: ItemCategory): boolean {
    const name = categoryNameKey(category.name);
    for (const other of this.store.categories.values()) {
      if (
        other.householdId === category.householdId &&
        other.id !== category.id &&
        categoryNameKey(other.name) === name
      )
        return true;
    }
    return false;
  }
}
