import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { Household, MemberProfile, Membership } from "../../domain/inventory/household.js";
import type { ItemCategory } from "../../domain/inventory/item-category.js";
import type { HouseholdRepository, MemberRemoval, OwnershipTransfer } from "../../ports/household-repository.js";
import { copy, type MemoryInventoryStore } from "./memory-inventory-store.js";

function byCreation(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class MemoryHouseholdRepository implements HouseholdRepository {
  constructor(private readonly store: MemoryInventoryStore) {}

  async create(household: Household, ownerMembership: Membership, categories: ItemCategory[] = []): Promise<void> {
    this.store.households.set(household.id, copy(household));
    this.store.memberships.set(ownerMembership.id, copy(ownerMembership));
    for (const category of categories) this.store.categories.set(category.id, copy(category));
  }

  async findById(id: string): Promise<Household | null> {
    const household = this.store.households.get(id);
    return household ? copy(household) : null;
  }

  async listForUser(userId: string): Promise<Household[]> {
    const ids = new Set(
      [...this.store.memberships.values()].filter((m) => m.userId === userId).map((m) => m.householdId),
    );
    return [...this.store.households.values()]
      .filter((h) => ids.has(h.id))
      .sort(byCreation)
      .map(copy);
  }

  async update(id: string, changes: { name?: string; timeZone?: string }, at: Date): Promise<Household | null> {
    const household = this.store.households.get(id);
    if (!household) return null;
    const updated = { ...household, ...changes, updatedAt: at };
    this.store.households.set(id, updated);
    return copy(updated);
  }

  async delete(id: string, events?: InventoryEvent[]): Promise<boolean> {
    if (!this.store.households.has(id)) return false;
    for (const cascade of this.store.householdCascades) cascade(id);
    const freezerIds = new Set<string>();
    for (const [key, freezer] of this.store.freezers) {
      if (freezer.householdId !== id) continue;
      freezerIds.add(freezer.id);
      this.store.freezers.delete(key);
    }
    for (const [key, compartment] of this.store.compartments) {
      if (freezerIds.has(compartment.freezerId)) this.store.compartments.delete(key);
    }
    for (const [key, category] of this.store.categories) {
      if (category.householdId === id) this.store.categories.delete(key);
    }
    for (const [key, invite] of this.store.invites) if (invite.householdId === id) this.store.invites.delete(key);
    for (const [key, membership] of this.store.memberships) {
      if (membership.householdId === id) this.store.memberships.delete(key);
    }
    this.store.households.delete(id);
    this.store.outbox.append(events);
    return true;
  }

  async ownsAny(userId: string): Promise<boolean> {
    for (const household of this.store.households.values()) if (household.ownerId === userId) return true;
    return false;
  }

  async findMembership(householdId: string, userId: string): Promise<Membership | null> {
    for (const membership of this.store.memberships.values()) {
      if (membership.householdId === householdId && membership.userId === userId) return copy(membership);
    }
    return null;
  }

  async listMembers(householdId: string): Promise<MemberProfile[]> {
    return [...this.store.memberships.values()]
      .filter((membership) => membership.householdId === householdId)
      .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((membership) => {
        const user = this.store.users.get(membership.userId);
        return { ...membership, name: user?.name ?? "", email: user?.email ?? "" };
      });
  }

  async addMember(membership: Membership): Promise<boolean> {
    if (await this.findMembership(membership.householdId, membership.userId)) return false;
    this.store.memberships.set(membership.id, copy(membership));
    return true;
  }

  // No await between reading and writing: a method runs to completion before another starts,
  // which gives the same one-at-a-time outcome the SQL adapter's row locks give.
  async removeMember({ householdId, userId, check, events }: MemberRemoval): Promise<boolean> {
    const household = this.store.households.get(householdId);
    if (!household) return false;
    const membership = this.membershipOf(householdId, userId);
    check?.(copy(household), membership ? copy(membership) : null);
    if (!membership) return false;
    this.store.memberships.delete(membership.id);
    this.store.outbox.append(events);
    return true;
  }

  async transferOwnership(transfer: OwnershipTransfer): Promise<Household | null> {
    const { householdId, newOwnerId, at, check, events } = transfer;
    const household = this.store.households.get(householdId);
    if (!household) return null;
    const target = this.membershipOf(householdId, newOwnerId);
    check?.(copy(household), target ? copy(target) : null);
    if (!target) return null;
    for (const membership of this.store.memberships.values()) {
      if (membership.householdId !== householdId) continue;
      const role = membership.userId === newOwnerId ? "OWNER" : "MEMBER";
      this.store.memberships.set(membership.id, { ...membership, role });
    }
    const updated = { ...household, ownerId: newOwnerId, updatedAt: at };
    this.store.households.set(householdId, updated);
    this.store.outbox.append(events);
    return copy(updated);
  }

  private membershipOf(householdId: string, userId: string): Membership | undefined {
    for (const membership of this.store.memberships.values()) {
      if (membership.householdId === householdId && membership.userId === userId) return membership;
    }
    return undefined;
  }
}
