import { InvalidItemPlacementError } from "../../../domain/inventory/item-errors.js";
import type { FreezerRepository } from "../../../ports/freezer-repository.js";
import type { CategoryRepository } from "../../../ports/category-repository.js";
import { InvalidItemCategoryError } from "../../../domain/inventory/item-category.js";
import type { ItemPlacementLookup } from "../../../ports/item-placement.js";

/**
 * Rejects a freezer outside the household or a compartment outside that freezer.
 * `compartmentGiven` is false when a move names only the new freezer and the item's current
 * compartment was carried over: then the fix is to name a compartment of the new freezer.
 */
export async function assertValidPlacement(
  placements: ItemPlacementLookup,
  householdId: string,
  freezerId: string,
  compartmentId: string,
  compartmentGiven = true,
): Promise<void> {
  if (!(await placements.freezerInHousehold(householdId, freezerId))) {
    throw new InvalidItemPlacementError([{ path: "freezerId", message: "No such freezer in this household" }]);
  }
  if (!(await placements.compartmentInFreezer(freezerId, compartmentId))) {
    const message = compartmentGiven
      ? "This compartment is not in the given freezer; pick a compartment of that freezer"
      : "The item's current compartment is not in the new freezer; give a compartmentId of the new freezer too";
    throw new InvalidItemPlacementError([{ path: "compartmentId", message }]);
  }
}

/** Rejects a category that is not one of the household's. */
export async function assertValidCategory(
  placements: Pick<ItemPlacementLookup, "categoryInHousehold">,
  householdId: string,
  categoryId: string | null | undefined,
): Promise<void> {
  if (categoryId === null || categoryId === undefined) return;
  if (!(await placements.categoryInHousehold(householdId, categoryId))) throw new InvalidItemCategoryError();
}

/**
 * Placement answers from the freezer and category repositories (the same rows the freezer and
 * category routes manage).
 */
export function placementsFromFreezers(
  freezers: Pick<FreezerRepository, "findFreezer" | "findCompartment">,
  categories: Pick<CategoryRepository, "find">,
): ItemPlacementLookup {
  return {
    categoryInHousehold: async (householdId, categoryId) => (await categories.find(householdId, categoryId)) !== null,
    freezerInHousehold: async (householdId, freezerId) => (await freezers.findFreezer(householdId, freezerId)) !== null,
    compartmentInFreezer: async (freezerId, compartmentId) =>
      (await freezers.findCompartment(freezerId, compartmentId)) !== null,
  };
}
