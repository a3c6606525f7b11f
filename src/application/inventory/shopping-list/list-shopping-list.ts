import type { ShoppingListEntry } from "../../../domain/inventory/shopping-list.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ShoppingListPorts } from "./shopping-list-use-cases.js";

/** The household's shopping list, in its order. */
export class ListShoppingList extends HouseholdUseCase<Pick<ShoppingListPorts, "shoppingList">> {
  async execute(input: HouseholdInput): Promise<ShoppingListEntry[]> {
    await this.access.requireMember(input.householdId, input.userId);
    return this.ports.shoppingList.list(input.householdId);
  }
}
