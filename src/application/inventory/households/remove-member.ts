import { householdEvents } from "../household-events.js";
import {
  CannotRemoveOwnerError,
  MemberNotFoundError,
  NotHouseholdOwnerError,
} from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface RemoveMemberInput extends HouseholdInput {
  /** User id of the member to remove. */
  memberUserId: string;
}

export class RemoveMember extends HouseholdUseCase<Pick<InventoryPorts, "households" | "ids" | "clock">> {
  async execute(input: RemoveMemberInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    // Checked under the repository's locks, so a concurrent transfer cannot make the member
    // being removed the owner in between.
    const removed = await this.ports.households.removeMember({
      householdId: input.householdId,
      userId: input.memberUserId,
      check: (household, member) => {
        if (household.ownerId !== input.userId) throw new NotHouseholdOwnerError();
        if (!member) throw new MemberNotFoundError();
        if (member.role === "OWNER") throw new CannotRemoveOwnerError();
      },
      events: [householdEvents(this.ports, input)("member.left", { userId: input.memberUserId, removed: true })],
    });
    if (!removed) throw new MemberNotFoundError();
    return { message: "Member removed" };
  }
}
