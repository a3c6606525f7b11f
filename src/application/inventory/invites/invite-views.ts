import type { Invite } from "../../../domain/inventory/invite.js";

export interface InviteView {
  id: string;
  householdId: string;
  code: string;
  expiresAt: Date;
  createdAt: Date;
}

export function viewInvite(invite: Invite): InviteView {
  return {
    id: invite.id,
    householdId: invite.householdId,
    code: invite.code,
    expiresAt: invite.expiresAt,
    createdAt: invite.createdAt,
  };
}
