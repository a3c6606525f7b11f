import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface UpdateHouseholdInput {
  userId: string;
  householdId: string;
  name?: string | undefined;
}

export class UpdateHousehold extends HouseholdUseCase<Pick<InventoryPorts, "households" | "clock">> {
  async execute(input: UpdateHouseholdInput): Promise<HouseholdView> {
    await this.access.requireOwner(input.householdId, input.userId);
    const household =
      input.name === undefined
        ? await this.ports.households.findById(input.householdId)
        : await this.ports.households.updateName(input.householdId, input.name.trim(), this.ports.clock.now());
    if (!household) throw new NotHouseholdMemberError();
    return viewHousehold(household);
  }
}
