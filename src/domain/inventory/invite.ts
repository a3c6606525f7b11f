/** Invites are valid for seven days and can be used once. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface Invite {
  id: string;
  householdId: string;
  code: string;
  createdBy: string;
  expiresAt: Date;
  usedAt: Date | null;
  usedBy: string | null;
  createdAt: Date;
}

export function isInviteUsable(invite: Invite, now: Date): boolean {
  return invite.usedAt === null && invite.expiresAt.getTime() > now.getTime();
}
