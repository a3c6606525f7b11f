import { InviteNotFoundError } from "../../../domain/inventory/errors.js";
import type { HouseholdAccess } from "../household-access.js";
import type { Confirmation, HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface RevokeInviteInput extends HouseholdInput {
  inviteId: string;
}

export class RevokeInvite {
  constructor(
    private readonly ports: Pick<InventoryPorts, "invites">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: RevokeInviteInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    if (!(await this.ports.invites.delete(input.householdId, input.inviteId))) throw new InviteNotFoundError();
    return { message: "Invite revoked" };
  }
}
