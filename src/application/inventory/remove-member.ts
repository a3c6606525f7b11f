import { CannotRemoveOwnerError, MemberNotFoundError } from "../../domain/inventory/errors.js";
import type { HouseholdAccess } from "./household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "./inventory-ports.js";

export interface RemoveMemberInput extends HouseholdInput {
  /** User id of the member to remove. */
  memberUserId: string;
}

export class RemoveMember {
  constructor(
    private readonly ports: Pick<InventoryPorts, "households">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: RemoveMemberInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    const member = await this.ports.households.findMembership(input.householdId, input.memberUserId);
    if (!member) throw new MemberNotFoundError();
    if (member.role === "OWNER") throw new CannotRemoveOwnerError();
    if (!(await this.ports.households.removeMember(input.householdId, input.memberUserId))) {
      throw new MemberNotFoundError();
    }
    return { message: "Member removed" };
  }
}
