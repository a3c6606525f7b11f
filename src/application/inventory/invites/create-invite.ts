import { INVITE_LIFETIME_MS } from "../../../domain/inventory/invite.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";
import { type InviteView, viewInvite } from "./invite-views.js";

/** A single-use code, valid for seven days, that lets any signed-in user join. */
export class CreateInvite extends HouseholdUseCase<Pick<InventoryPorts, "invites" | "secrets" | "ids" | "clock">> {
  async execute(input: HouseholdInput): Promise<InviteView> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.ports.clock.now();
    const invite = {
      id: this.ports.ids.next(),
      householdId: input.householdId,
      code: this.ports.secrets.generate(),
      createdBy: input.userId,
      expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
      usedAt: null,
      usedBy: null,
      createdAt: now,
    };
    await this.ports.invites.insert(invite);
    return viewInvite(invite);
  }
}
