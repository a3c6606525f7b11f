import { HouseholdUseCase } from "../household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

/** Removes the household with its freezers, compartments, items, invites and memberships, atomically. */
export class DeleteHousehold extends HouseholdUseCase<Pick<InventoryPorts, "households">> {
  async execute(input: HouseholdInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    await this.ports.households.delete(input.householdId);
    return { message: "Household deleted" };
  }
}
