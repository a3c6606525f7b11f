import { householdEvents } from "../household-events.js";
import { NotHouseholdMemberError, OwnerCannotLeaveError } from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

/** A member leaves; the owner must transfer ownership (or delete the household) first. */
export class LeaveHousehold extends HouseholdUseCase<Pick<InventoryPorts, "households" | "ids" | "clock">> {
  async execute(input: HouseholdInput): Promise<Confirmation> {
    const membership = await this.access.requireMember(input.householdId, input.userId);
    if (membership.role === "OWNER") throw new OwnerCannotLeaveError();
    // Again under the repository's locks: ownership may have been transferred to the caller meanwhile.
    const left = await this.ports.households.removeMember({
      householdId: input.householdId,
      userId: input.userId,
      check: (_household, current) => {
        if (!current) throw new NotHouseholdMemberError();
        if (current.role === "OWNER") throw new OwnerCannotLeaveError();
      },
      events: [householdEvents(this.ports, input)("member.left", { userId: input.userId, removed: false })],
    });
    if (!left) throw new NotHouseholdMemberError();
    return { message: "You left the household" };
  }
}
