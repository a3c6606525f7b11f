import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import { type HouseholdDetailView, viewHouseholdDetail } from "./household-views.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export class GetHousehold extends HouseholdUseCase<Pick<InventoryPorts, "households">> {
  async execute(input: HouseholdInput): Promise<HouseholdDetailView> {
    await this.access.requireMember(input.householdId, input.userId);
    const household = await this.ports.households.findById(input.householdId);
    if (!household) throw new NotHouseholdMemberError();
    return viewHouseholdDetail(household, await this.ports.households.listMembers(household.id));
  }
}
