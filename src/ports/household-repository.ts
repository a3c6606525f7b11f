import type { Household, MemberProfile, Membership } from "../domain/inventory/household.js";
import type { InventoryEvent } from "../domain/inventory/inventory-event.js";
import type { ItemCategory } from "../domain/inventory/item-category.js";

/** Sees the locked household and membership (null when missing) and throws to refuse a change. */
export type MembershipCheck = (household: Household, membership: Membership | null) => void;

/** A member leaving or being removed; see {@link HouseholdRepository.removeMember}. */
export interface MemberRemoval {
  householdId: string;
  userId: string;
  check?: MembershipCheck | undefined;
  /** Written to the outbox in the same transaction. */
  events?: InventoryEvent[] | undefined;
}

/** Ownership passing to `newOwnerId`; see {@link HouseholdRepository.transferOwnership}. */
export interface OwnershipTransfer {
  householdId: string;
  newOwnerId: string;
  at: Date;
  check?: MembershipCheck | undefined;
  /** Written to the outbox in the same transaction. */
  events?: InventoryEvent[] | undefined;
}

/** Households and their memberships (one aggregate: ownership lives in both). */
/** Where the access policy looks up who belongs to a household. */
export type MembershipSource = Pick<HouseholdRepository, "findMembership">;

export interface HouseholdRepository {
  /** Creates the household, the owner's membership and its first categories together. */
  create(household: Household, ownerMembership: Membership, categories?: ItemCategory[]): Promise<void>;
  findById(id: string): Promise<Household | null>;
  /** Households the user is a member of, oldest first. */
  listForUser(userId: string): Promise<Household[]>;
  /** Changes the name and/or the time zone; null when there is no such household. */
  update(id: string, changes: { name?: string; timeZone?: string }, at: Date): Promise<Household | null>;
  /** Deletes the household and everything under it (freezers, compartments, items, invites, memberships) in one transaction. */
  /** Everything under the household goes with it; `events` are written in the same transaction. */
  delete(id: string, events?: InventoryEvent[]): Promise<boolean>;
  /** True when the user owns at least one household. */
  ownsAny(userId: string): Promise<boolean>;

  findMembership(householdId: string, userId: string): Promise<Membership | null>;
  /** Members with their current name and email, ordered by joinedAt. */
  listMembers(householdId: string): Promise<MemberProfile[]>;
  /** False when the user already is a member. */
  addMember(membership: Membership): Promise<boolean>;
  /**
   * Locks the household and the membership, lets `check` veto (by throwing a DomainError),
   * then removes the membership, all in one transaction, so a concurrent transfer or removal
   * sees the outcome. False when the household or the membership is gone.
   */
  removeMember(removal: MemberRemoval): Promise<boolean>;
  /**
   * Locks the household and the new owner's membership, lets `check` veto, then makes
   * `newOwnerId` the owner (role OWNER, `ownerId`) and the previous owner a MEMBER, in one
   * transaction. Returns null when the household or the new owner's membership is missing.
   */
  transferOwnership(transfer: OwnershipTransfer): Promise<Household | null>;
}

export const HOUSEHOLD_REPOSITORY = Symbol("HouseholdRepository");
