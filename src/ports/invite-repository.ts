import type { Invite } from "../domain/inventory/invite.js";

export interface InviteRepository {
  insert(invite: Invite): Promise<void>;
  findByCode(code: string): Promise<Invite | null>;
  findById(householdId: string, inviteId: string): Promise<Invite | null>;
  /** Unused, unexpired invites of the household, newest first. */
  listActive(householdId: string, now: Date): Promise<Invite[]>;
  delete(householdId: string, inviteId: string): Promise<boolean>;
  /** Atomically marks a usable invite as used; false when it was used or expired meanwhile. */
  markUsed(inviteId: string, userId: string, at: Date): Promise<boolean>;
}

export const INVITE_REPOSITORY = Symbol("InviteRepository");
