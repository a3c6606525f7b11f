import { InviteNotFoundError } from "../../../domain/inventory/errors.js";
import { HouseholdUseCase } from "../household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface RevokeInviteInput extends HouseholdInput {
  inviteId: string;
}

export class RevokeInvite extends HouseholdUseCase<Pick<InventoryPorts, "invites">> {
  async execute(input: RevokeInviteInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    if (!(await this.ports.invites.delete(input.householdId, input.inviteId))) throw new InviteNotFoundError();
    return { message: "Invite revoked" };
  }
}
