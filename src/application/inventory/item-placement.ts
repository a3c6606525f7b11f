import { InvalidItemPlacementError } from "../../domain/inventory/item-errors.js";
import type { FreezerRepository } from "../../ports/freezer-repository.js";
import type { ItemPlacementLookup } from "../../ports/item-placement.js";

/** Rejects a freezer outside the household or a compartment outside that freezer. */
export async function assertValidPlacement(
  placements: ItemPlacementLookup,
  householdId: string,
  freezerId: string,
  compartmentId: string,
): Promise<void> {
  if (!(await placements.freezerInHousehold(householdId, freezerId))) {
    throw new InvalidItemPlacementError([{ path: "freezerId", message: "No such freezer in this household" }]);
  }
  if (!(await placements.compartmentInFreezer(freezerId, compartmentId))) {
    throw new InvalidItemPlacementError([
      { path: "compartmentId", message: "No such compartment in this freezer (give compartmentId when moving freezers)" },
    ]);
  }
}

/** Placement answers from the freezer repository (the same rows the freezer routes manage). */
export function placementsFromFreezers(
  freezers: Pick<FreezerRepository, "findFreezer" | "findCompartment">,
): ItemPlacementLookup {
  return {
    freezerInHousehold: async (householdId, freezerId) => (await freezers.findFreezer(householdId, freezerId)) !== null,
    compartmentInFreezer: async (freezerId, compartmentId) =>
      (await freezers.findCompartment(freezerId, compartmentId)) !== null,
  };
}
