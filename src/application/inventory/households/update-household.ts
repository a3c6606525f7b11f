import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface UpdateHouseholdInput {
  userId: string;
  householdId: string;
  name?: string | undefined;
  /** IANA time zone (validated at the boundary). */
  timeZone?: string | undefined;
}

export class UpdateHousehold extends HouseholdUseCase<Pick<InventoryPorts, "households" | "clock">> {
  async execute(input: UpdateHouseholdInput): Promise<HouseholdView> {
    await this.access.requireOwner(input.householdId, input.userId);
    const changes = {
      ...(input.name === undefined ? {} : { name: input.name.trim() }),
      ...(input.timeZone === undefined ? {} : { timeZone: input.timeZone }),
    };
    const household =
      Object.keys(changes).length === 0
        ? await this.ports.households.findById(input.householdId)
        : await this.ports.households.update(input.householdId, changes, this.ports.clock.now());
    if (!household) throw new NotHouseholdMemberError();
    return viewHousehold(household);
  }
}
