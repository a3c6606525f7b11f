import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";
import { type InviteView, viewInvite } from "./invite-views.js";

/** Invites that can still be used (neither used nor expired). */
export class ListInvites extends HouseholdUseCase<Pick<InventoryPorts, "invites" | "clock">> {
  async execute(input: HouseholdInput): Promise<InviteView[]> {
    await this.access.requireOwner(input.householdId, input.userId);
    return (await this.ports.invites.listActive(input.householdId, this.ports.clock.now())).map(viewInvite);
  }
}
