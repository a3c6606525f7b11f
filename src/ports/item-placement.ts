/** Where an item may be put: what the item use cases need to know about freezers. */
export interface ItemPlacementLookup {
  /** Whether `freezerId` is a freezer of the household. */
  freezerInHousehold(householdId: string, freezerId: string): Promise<boolean>;
  /** Whether `compartmentId` is a compartment of the freezer. */
  compartmentInFreezer(freezerId: string, compartmentId: string): Promise<boolean>;
  /** Whether `categoryId` is a category of the household. */
  categoryInHousehold(householdId: string, categoryId: string): Promise<boolean>;
}

export const ITEM_PLACEMENT_LOOKUP = Symbol("ItemPlacementLookup");
