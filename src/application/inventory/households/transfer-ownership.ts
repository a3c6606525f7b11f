import { householdEvents } from "../household-events.js";
import {
  InvalidTransferTargetError,
  NotHouseholdMemberError,
  NotHouseholdOwnerError,
} from "../../../domain/inventory/errors.js";

const NOT_A_MEMBER = "newOwnerId must be the user id of a member of this household";
import { HouseholdUseCase } from "../household-access.js";
import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface TransferOwnershipInput extends HouseholdInput {
  newOwnerId: string;
}

/** The new owner gets role OWNER; the previous owner stays as a MEMBER. */
export class TransferOwnership extends HouseholdUseCase<Pick<InventoryPorts, "households" | "clock" | "ids">> {
  async execute(input: TransferOwnershipInput): Promise<HouseholdView> {
    await this.access.requireOwner(input.householdId, input.userId);
    if (input.newOwnerId === input.userId) throw new InvalidTransferTargetError("You already own this household");
    // The rules are checked again under the repository's locks: a member leaving, being removed
    // or deleting their account at the same moment must not end with an owner who is gone.
    const at = this.ports.clock.now();
    const event = householdEvents(this.ports, input, at);
    const household = await this.ports.households.transferOwnership({
      householdId: input.householdId,
      newOwnerId: input.newOwnerId,
      at,
      check: (current, target) => {
        if (current.ownerId !== input.userId) throw new NotHouseholdOwnerError();
        if (!target) throw new InvalidTransferTargetError(NOT_A_MEMBER);
      },
      events: [
        event("member.role_changed", { userId: input.newOwnerId, role: "OWNER" }),
        event("member.role_changed", { userId: input.userId, role: "MEMBER" }),
      ],
    });
    if (!household) throw new NotHouseholdMemberError();
    return viewHousehold(household);
  }
}
