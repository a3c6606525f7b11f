import { type Invite, isInviteUsable } from "../../domain/inventory/invite.js";
import type { InviteAcceptance, InviteAcceptOutcome, InviteRepository } from "../../ports/invite-repository.js";
import { copy, type MemoryInventoryStore } from "./memory-inventory-store.js";

export class MemoryInviteRepository implements InviteRepository {
  constructor(private readonly store: MemoryInventoryStore) {}

  async insert(invite: Invite): Promise<void> {
    this.store.invites.set(invite.id, copy(invite));
  }

  async findByCode(code: string): Promise<Invite | null> {
    for (const invite of this.store.invites.values()) if (invite.code === code) return copy(invite);
    return null;
  }

  async findById(householdId: string, inviteId: string): Promise<Invite | null> {
    const invite = this.store.invites.get(inviteId);
    return invite && invite.householdId === householdId ? copy(invite) : null;
  }

  async listActive(householdId: string, now: Date): Promise<Invite[]> {
    return [...this.store.invites.values()]
      .filter((invite) => invite.householdId === householdId && isInviteUsable(invite, now))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map(copy);
  }

  async delete(householdId: string, inviteId: string): Promise<boolean> {
    const invite = this.store.invites.get(inviteId);
    if (!invite || invite.householdId !== householdId) return false;
    this.store.invites.delete(inviteId);
    return true;
  }

  async accept({ inviteId, membership, at, events }: InviteAcceptance): Promise<InviteAcceptOutcome> {
    const invite = this.store.invites.get(inviteId);
    if (!invite || !isInviteUsable(invite, at) || !this.store.households.has(membership.householdId)) return "gone";
    for (const existing of this.store.memberships.values()) {
      if (existing.householdId === membership.householdId && existing.userId === membership.userId)
        return "already_member";
    }
    this.store.invites.set(inviteId, { ...invite, usedAt: at, usedBy: membership.userId });
    this.store.memberships.set(membership.id, copy(membership));
    this.store.outbox.append(events);
    return "accepted";
  }
}
