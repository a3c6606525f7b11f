import type { ChangeLogEntryView } from "../domain/inventory/change-log-entry.js";
import type { InventoryEvent } from "../domain/inventory/inventory-event.js";
import type {
  FreezerItem,
  FreezerItemView,
  ItemSortField,
  ItemUpdate,
  SortOrder,
  UserSummary,
} from "../domain/inventory/freezer-item.js";

/** Filters, sorting and paging of the item list (active items) or of the archive. */
export interface ItemListQuery {
  householdId: string;
  /** List the archive (soft-deleted items) instead; then unsorted pages come most recently archived first. */
  archived?: boolean | undefined;
  freezerId?: string | undefined;
  compartmentIds?: string[] | undefined;
  /** Only items of this category; null: only uncategorised items. */
  categoryId?: string | null | undefined;
  /** Free text; matched word-prefix-wise, case- and accent-insensitively, all words required. */
  search?: string | undefined;
  /** Only items with an expiry strictly before this moment. */
  expiresBefore?: Date | undefined;
  /** Absent: by relevance then name when searching, else by createdAt. */
  sort?: ItemSortField | undefined;
  /** Default desc. */
  order?: SortOrder | undefined;
  /** 1-indexed. */
  page: number;
  limit: number;
}

export interface ItemPage {
  items: FreezerItemView[];
  /** All matches, not just this page: always an exact count. */
  total: number;
}

/**
 * Computes an item's next state from the current one; may throw a DomainError to abort
 * without writing anything. The result is written only if the item is still in the state
 * it was computed from; otherwise the repository runs the updater again under the item's
 * lock, so it must not have effects of its own (it may be called twice).
 */
export type ItemUpdater = (current: FreezerItem) => ItemUpdate;

/** Where an in-memory adapter finds the users items refer to. */
export interface UserSummarySource {
  findById(userId: string): Promise<UserSummary | null | undefined>;
}

/** What a member's read found: `found` is undefined when the household has no such item. */
export interface MemberRead<T> {
  found: T | undefined;
}

/** One item as a user asks for it: the repository answers only if the user is a member. */
export interface MemberItem {
  userId: string;
  householdId: string;
  itemId: string;
}

/**
 * Sees the locked item before a permanent delete: throws to veto, or returns the events to
 * write with the delete.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a check that only vetoes returns nothing
export type DeleteCheck = (current: FreezerItem) => InventoryEvent[] | undefined | void;

/** What {@link ItemRepository.createForMember} did: the new item, or the check that refused it. */
export type MemberCreate = { created: FreezerItemView } | { refused: "not-member" | "placement" | "category" };

/** Storage of freezer items and their change log. Every read and write is scoped to a household. */
export interface ItemRepository {
  /** Inserts the item; `events` go to the outbox in the same transaction. */
  create(item: FreezerItem, events?: InventoryEvent[]): Promise<FreezerItemView>;
  /**
   * Inserts the item, with `events` in the same transaction, when `userId` is a member of its
   * household, its compartment belongs to its freezer of that household and its category (if
   * any) to that household; otherwise writes nothing and says which check refused it
   * (membership, then placement, then category). One statement on SQL, where
   * the checks, the insert, the outbox row and the read-back would otherwise be six.
   */
  createForMember(userId: string, item: FreezerItem, events?: InventoryEvent[]): Promise<MemberCreate>;
  /** Bulk insert without per-row reads (seeding, imports). */
  insertMany(items: FreezerItem[]): Promise<void>;
  /** Active or archived; undefined when absent or in another household. */
  findById(householdId: string, itemId: string): Promise<FreezerItemView | undefined>;
  /** Active items, or archived ones with `archived: true`. */
  list(query: ItemListQuery): Promise<ItemPage>;
  /**
   * The page of `query` when `userId` is a member of the household, undefined when not.
   * The membership is read together with what the list reads first (the list cache's
   * revision), so a cached page costs the database one round trip.
   */
  listForMember(userId: string, query: ItemListQuery): Promise<ItemPage | undefined>;
  /**
   * One item (active or archived) as `userId` reads it: undefined when the user is not a
   * member of the household; `found` undefined when the household has no such item. One
   * round trip on SQL, where the membership check and the read would otherwise be two.
   */
  findForMember(ref: MemberItem): Promise<MemberRead<FreezerItemView> | undefined>;
  /** The item's change log (see {@link history}) as `userId` reads it, like {@link findForMember}. */
  historyForMember(ref: MemberItem): Promise<MemberRead<ChangeLogEntryView[]> | undefined>;
  /** Archived items, most recently archived first. */
  listArchived(householdId: string): Promise<FreezerItemView[]>;
  /**
   * Locks the item (concurrent updates of one item run one after the other), applies
   * `updater`, and writes the new state and its change-log entries in one transaction.
   * Returns undefined when the item does not exist in the household.
   */
  update(householdId: string, itemId: string, updater: ItemUpdater): Promise<FreezerItemView | undefined>;
  /**
   * {@link update} for `userId`: undefined when the user is not a member of the household,
   * `found` undefined when the household has no such item. On SQL an uncontended update is
   * two statements (read with the membership, then write, log, outbox and read-back).
   */
  updateForMember(ref: MemberItem, updater: ItemUpdater): Promise<MemberRead<FreezerItemView> | undefined>;
  /**
   * Locks the item, lets `check` veto (by throwing), then deletes it with its history.
   * Returns false when the item does not exist in the household.
   */
  deletePermanently(householdId: string, itemId: string, check: DeleteCheck): Promise<boolean>;
  /** Newest first; entries of one change ordered by field name. */
  history(itemId: string): Promise<ChangeLogEntryView[]>;
}

export const ITEM_REPOSITORY = Symbol("ItemRepository");
