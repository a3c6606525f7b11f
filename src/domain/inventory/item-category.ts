import { DomainError } from "../shared/domain-error.js";

/**
 * The categories every household starts with, in display order. A default keeps its stable
 * `key` until the owner renames it, so apps show it in the reader's language; the stored
 * `name` (English) is what clients without translations show and what uniqueness checks.
 */
export const DEFAULT_CATEGORIES = [
  { key: "meat", name: "Meat" },
  { key: "fish", name: "Fish" },
  { key: "vegetables", name: "Vegetables" },
  { key: "fruit", name: "Fruit" },
  { key: "baked_goods", name: "Baked goods" },
  { key: "ready_meals", name: "Ready meals" },
  { key: "ice_cream", name: "Ice cream" },
  { key: "herbs", name: "Herbs" },
  { key: "other", name: "Other" },
] as const;

export type DefaultCategoryKey = (typeof DEFAULT_CATEGORIES)[number]["key"];

/** A household's category of items (meat, fish, … or one the owner added). */
export interface ItemCategory {
  id: string;
  householdId: string;
  /** The default this category still is (translated by apps); null once renamed or for added ones. */
  key: DefaultCategoryKey | null;
  /** Unique per household, ignoring case. */
  name: string;
  /** Display order; ties are broken by name. */
  position: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The default categories of a new household. */
export function defaultCategories(householdId: string, now: Date, newId: () => string): ItemCategory[] {
  return DEFAULT_CATEGORIES.map((category, position) => ({
    id: newId(),
    householdId,
    key: category.key,
    name: category.name,
    position,
    createdAt: now,
    updatedAt: now,
  }));
}

/** The key a name is compared by: two names that differ only in case are the same category. */
export function categoryNameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Orders categories by position, then name ignoring case, then id: the same in memory and SQL. */
export function compareCategories(
  a: Pick<ItemCategory, "id" | "name" | "position">,
  b: Pick<ItemCategory, "id" | "name" | "position">,
): number {
  const an = categoryNameKey(a.name);
  const bn = categoryNameKey(b.name);
  return a.position - b.position || (an < bn ? -1 : an > bn ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class CategoryNotFoundError extends DomainError {
  readonly code = "CATEGORY_NOT_FOUND";
  constructor() {
    super("Category not found");
  }
}

/** Another category of the household has this name (ignoring case). */
export class CategoryNameTakenError extends DomainError {
  readonly code = "CATEGORY_NAME_TAKEN";
  constructor(name: string) {
    super(`The household already has a category named "${name}"`, [
      { path: "name", message: "must differ from the household's other categories" },
    ]);
  }
}

/** An item's categoryId that is not a category of the item's household. */
export class InvalidItemCategoryError extends DomainError {
  readonly code = "INVALID_ITEM_CATEGORY";
  constructor(message = "No such category in this household") {
    super("The category does not exist in this household", [{ path: "categoryId", message }]);
  }
}
