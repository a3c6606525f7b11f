import type { InventoryEvent } from "../domain/inventory/inventory-event.js";
import type { Membership } from "../domain/inventory/household.js";
import type { Invite } from "../domain/inventory/invite.js";

/** An invite used up by the user of `membership`; see {@link InviteRepository.accept}. */
export interface InviteAcceptance {
  inviteId: string;
  membership: Membership;
  at: Date;
  /** Written to the outbox in the same transaction as the membership. */
  events?: InventoryEvent[] | undefined;
}

export type InviteAcceptOutcome = "accepted" | "gone" | "already_member";

export interface InviteRepository {
  insert(invite: Invite): Promise<void>;
  findByCode(code: string): Promise<Invite | null>;
  findById(householdId: string, inviteId: string): Promise<Invite | null>;
  /** Unused, unexpired invites of the household, newest first. */
  listActive(householdId: string, now: Date): Promise<Invite[]>;
  delete(householdId: string, inviteId: string): Promise<boolean>;
  /**
   * Uses the invite up and adds `membership`, in one transaction: "gone" (used, expired or its
   * household deleted meanwhile) and "already_member" change nothing, so the invite stays usable.
   */
  accept(acceptance: InviteAcceptance): Promise<InviteAcceptOutcome>;
}

export const INVITE_REPOSITORY = Symbol("InviteRepository");
