import type { Compartment, Freezer } from "../../domain/inventory/freezer.js";
import type { Household, Membership } from "../../domain/inventory/household.js";
import type { Invite } from "../../domain/inventory/invite.js";
import type { ItemCategory } from "../../domain/inventory/item-category.js";
import type { RefreshToken } from "../../domain/inventory/refresh-token.js";
import type { User } from "../../domain/inventory/user.js";
import { MemoryInventoryOutbox } from "./memory-inventory-outbox.js";
import type { MemoryItemRepository } from "./memory-item-repository.js";
import type { MemoryItemPhotoRepository } from "./memory-item-photo-repository.js";

/**
 * The rows the in-memory repositories share, standing in for one database so that
 * cross-table rules (cascades, "freezer still holds items") work as in PostgreSQL.
 * The items area plugs in through `itemsIn` and `householdCascades`.
 */
export class MemoryInventoryStore {
  readonly users = new Map<string, User>();
  readonly refreshTokens = new Map<string, RefreshToken>();
  readonly households = new Map<string, Household>();
  readonly memberships = new Map<string, Membership>();
  readonly invites = new Map<string, Invite>();
  readonly freezers = new Map<string, Freezer>();
  readonly compartments = new Map<string, Compartment>();
  readonly categories = new Map<string, ItemCategory>();
  /** Inventory events the repositories wrote, as the outbox table holds them. */
  readonly outbox = new MemoryInventoryOutbox();
  /** The items area's repository, once it plugged in (export and import read it). */
  items: MemoryItemRepository | null = null;
  /** The items' photos, once the items area plugged in (export and import read them). */
  photos: MemoryItemPhotoRepository | null = null;

  /** Whether any item (active or archived) references the freezer or compartment; none by default. */
  itemsIn: (where: { freezerId?: string; compartmentId?: string }) => boolean = () => false;

  /** Uncategorises the items of a deleted category (the foreign key's SET NULL); returns how many. */
  uncategorise: (householdId: string, categoryId: string) => number = () => 0;

  /** Run when a household is deleted, so other areas drop their rows of it (items, change log). */
  readonly householdCascades: ((householdId: string) => void)[] = [];

  /** Run when an account is deleted (anonymised), so other areas drop what only it had (push devices). */
  readonly userCascades: ((userId: string) => void)[] = [];
}

/** Copies so callers never mutate stored rows by accident (the database would not let them either). */
export function copy<T extends object>(row: T): T {
  return { ...row };
}
