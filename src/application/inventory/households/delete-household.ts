import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import { householdEvents } from "../household-events.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

/**
 * Removes the household with its freezers, compartments, items, invites and memberships,
 * atomically, and records `household.deleted` (with the name, which goes with it).
 */
export class DeleteHousehold extends HouseholdUseCase<Pick<InventoryPorts, "households" | "ids" | "clock">> {
  async execute(input: HouseholdInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    const household = await this.ports.households.findById(input.householdId);
    // Deleted meanwhile: gone, like any household the caller is not in.
    if (!household) throw new NotHouseholdMemberError();
    // A concurrent delete that won has written the event; this one has nothing left to do.
    await this.ports.households.delete(input.householdId, [
      householdEvents(this.ports, input)("household.deleted", { name: household.name }),
    ]);
    return { message: "Household deleted" };
  }
}
