import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { renumber, ShoppingListEntryNotFoundError } from "../../../domain/inventory/shopping-list.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { Confirmation, HouseholdInput } from "../inventory-ports.js";
import { changedEntries } from "./shopping-list-events.js";
import type { ShoppingListPorts } from "./shopping-list-use-cases.js";

/** Takes an entry off the list; the entries below it move up one place. */
export class RemoveShoppingListEntry extends HouseholdUseCase<ShoppingListPorts> {
  async execute(input: HouseholdInput & { entryId: string }): Promise<Confirmation> {
    await this.access.requireMember(input.householdId, input.userId);
    const event = householdEvents(this.ports, input);
    const written = await this.ports.shoppingList.change(input.householdId, (entries) => {
      const removed = entries.find((entry) => entry.id === input.entryId);
      if (!removed) throw new ShoppingListEntryNotFoundError();
      const rest = entries.filter((entry) => entry.id !== removed.id);
      return {
        remove: [removed.id],
        save: changedEntries(rest, renumber(rest)),
        events: [event("shopping_list.removed", { entryId: removed.id, name: removed.name })],
        result: { message: "Entry removed from the shopping list" },
      };
    });
    if (!written) throw new NotHouseholdMemberError();
    return written.result;
  }
}
