import { OwnerCannotLeaveError } from "../../domain/inventory/errors.js";
import type { HouseholdAccess } from "./household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "./inventory-ports.js";

/** A member leaves; the owner must transfer ownership (or delete the household) first. */
export class LeaveHousehold {
  constructor(
    private readonly ports: Pick<InventoryPorts, "households">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: HouseholdInput): Promise<Confirmation> {
    const membership = await this.access.requireMember(input.householdId, input.userId);
    if (membership.role === "OWNER") throw new OwnerCannotLeaveError();
    await this.ports.households.removeMember(input.householdId, input.userId);
    return { message: "You left the household" };
  }
}
