import { DAY_MS } from "../../domain/shared/local-time.js";
import { compareCategories } from "../../domain/inventory/item-category.js";
import type {
  CategorySummary,
  FreezerCount,
  HouseholdName,
  HouseholdSummary,
  InventorySummaries,
} from "../../ports/inventory-summaries.js";
import type { ItemRepository } from "../../ports/item-repository.js";
import type { MemoryInventoryStore } from "./memory-inventory-store.js";

const ALL = 1_000_000;

/** The same figures over the in-memory store and item repository. */
export class MemoryInventorySummaries implements InventorySummaries {
  constructor(
    private readonly store: MemoryInventoryStore,
    private readonly items: ItemRepository,
  ) {}

  async listHouseholds(ids?: readonly string[]): Promise<HouseholdName[]> {
    const wanted = ids && new Set(ids);
    return [...this.store.households.values()]
      .filter((household) => !wanted || wanted.has(household.id))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((household) => ({ id: household.id, name: household.name }));
  }

  async summarize(householdId: string, now: Date, soonDays: number): Promise<HouseholdSummary> {
    const { items } = await this.items.list({ householdId, page: 1, limit: ALL });
    const soon = now.getTime() + soonDays * DAY_MS;
    const categories = [...this.store.categories.values()]
      .filter((category) => category.householdId === householdId)
      .sort(compareCategories);
    const byCategory: CategorySummary[] = [
      ...categories.map((category) => ({ categoryId: category.id, key: category.key, name: category.name })),
      { categoryId: null, key: null, name: null },
    ].map((entry) => ({ ...entry, itemCount: 0, expiringSoon: 0, expired: 0 }));
    const uncategorised = byCategory[byCategory.length - 1] as CategorySummary;
    let expired = 0;
    let expiringSoon = 0;
    for (const item of items) {
      const entry = byCategory.find((candidate) => candidate.categoryId === item.categoryId) ?? uncategorised;
      entry.itemCount++;
      const at = item.expiresAt?.getTime();
      if (at === undefined) continue;
      if (at < now.getTime()) {
        expired++;
        entry.expired++;
      } else if (at < soon) {
        expiringSoon++;
        entry.expiringSoon++;
      }
    }
    return { householdId, itemCount: items.length, expiringSoon, expired, byCategory };
  }

  async countsByFreezer(householdId: string): Promise<FreezerCount[]> {
    const freezers = [...this.store.freezers.values()]
      .filter((freezer) => freezer.householdId === householdId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
    const { items } = await this.items.list({ householdId, page: 1, limit: ALL });
    return freezers.map((freezer) => ({
      freezerId: freezer.id,
      name: freezer.name,
      itemCount: items.filter((item) => item.freezerId === freezer.id).length,
    }));
  }
}
