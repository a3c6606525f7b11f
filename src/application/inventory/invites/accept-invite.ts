import { eventFactory } from "../../../domain/inventory/inventory-event.js";
import { AlreadyMemberError, InviteGoneError, InviteNotFoundError } from "../../../domain/inventory/errors.js";
import { isInviteUsable } from "../../../domain/inventory/invite.js";
import { requireActiveUser } from "../accounts/active-user.js";
import { type HouseholdView, viewHousehold } from "../households/household-views.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface AcceptInviteInput {
  userId: string;
  code: string;
}

/** Joins the invite's household as a MEMBER and uses the invite up. */
export class AcceptInvite {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "households" | "invites" | "ids" | "clock">) {}

  async execute(input: AcceptInviteInput): Promise<HouseholdView> {
    const user = await requireActiveUser(this.ports.users, input.userId);
    const now = this.ports.clock.now();
    const invite = await this.ports.invites.findByCode(input.code);
    if (!invite) throw new InviteNotFoundError();
    if (!isInviteUsable(invite, now)) throw new InviteGoneError();
    // Checked before using the invite up, so a member who clicks a link twice does not burn it.
    if (await this.ports.households.findMembership(invite.householdId, user.id)) throw new AlreadyMemberError();
    const household = await this.ports.households.findById(invite.householdId);
    if (!household) throw new InviteNotFoundError();
    // Using the invite up and joining are one transaction: a refusal (another invite of the same
    // household accepted a moment earlier, say) leaves this invite unused.
    const joined = eventFactory({
      householdId: household.id,
      userId: user.id,
      at: now,
      newId: () => this.ports.ids.next(),
    });
    const outcome = await this.ports.invites.accept({
      inviteId: invite.id,
      membership: {
        id: this.ports.ids.next(),
        householdId: household.id,
        userId: user.id,
        role: "MEMBER",
        joinedAt: now,
      },
      at: now,
      events: [joined("member.joined", { userId: user.id, role: "MEMBER" })],
    });
    if (outcome === "already_member") throw new AlreadyMemberError();
    if (outcome === "gone") throw new InviteGoneError();
    return viewHousehold(household);
  }
}
