import type { ChangeLogEntry } from "./change-log-entry.js";
import type { InventoryEvent } from "./inventory-event.js";
import { stringifyChangeValue } from "./change-log-entry.js";
import type { UserSummary } from "./user.js";
import { assertQuantityFitsUnit, type ItemUnit } from "./item-unit.js";

export type { UserSummary };

/** A freezer item as stored: users are referenced by id. */
export interface FreezerItem {
  id: string;
  householdId: string;
  freezerId: string;
  compartmentId: string;
  name: string;
  quantity: number;
  /** What `quantity` counts; `piece` unless set. */
  unit: ItemUnit;
  /** One of the household's categories, or null (uncategorised). */
  categoryId: string | null;
  notes: string | null;
  storedAt: Date | null;
  expiresAt: Date | null;
  /** The product's barcode (see domain/inventory/barcode.ts for the accepted forms), or null. */
  barcode: string | null;
  /** null while active; set once archived. */
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  createdById: string;
  updatedById: string;
  /**
   * When the item's photo was last set (the version its photo URLs carry); null or absent
   * when it has none. The images themselves are stored apart from the item.
   */
  photoUpdatedAt?: Date | null;
}

/** A freezer item with its creator and last updater resolved, as the API returns it. */
export interface FreezerItemView extends FreezerItem {
  createdBy: UserSummary;
  updatedBy: UserSummary;
}

/** The fields a member may set on an item; they are also the fields the change log tracks. */
export interface ItemFields {
  name: string;
  quantity: number;
  freezerId: string;
  compartmentId: string;
  notes: string | null;
  storedAt: Date | null;
  expiresAt: Date | null;
  barcode: string | null;
  unit: ItemUnit;
  categoryId: string | null;
}

export type ItemPatch = { [K in keyof ItemFields]?: ItemFields[K] | undefined };

/** Tracked fields in alphabetical order, which is also the order of one PATCH's history entries. */
export const TRACKED_ITEM_FIELDS = [
  "barcode",
  "categoryId",
  "compartmentId",
  "expiresAt",
  "freezerId",
  "name",
  "notes",
  "quantity",
  "storedAt",
  "unit",
] as const satisfies readonly (keyof ItemFields)[];

export const ITEM_SORT_FIELDS = ["createdAt", "name", "expiresAt", "storedAt", "quantity"] as const;
export type ItemSortField = (typeof ITEM_SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";

export function isArchived(item: Pick<FreezerItem, "deletedAt">): boolean {
  return item.deletedAt !== null;
}

/**
 * The time a change made now should carry. History is ordered by time, so a change must
 * never share (or precede) the previous change's timestamp even when two land in the same
 * millisecond or the clock steps back; it is computed from the item's current version, which the
repository writes over only while that version stands (or under the item's lock).
 */
export function nextChangeTime(now: Date, item: Pick<FreezerItem, "updatedAt">): Date {
  return now.getTime() > item.updatedAt.getTime() ? now : new Date(item.updatedAt.getTime() + 1);
}

export interface ItemUpdate {
  item: FreezerItem;
  changes: ChangeLogEntry[];
  /** Inventory events of this change, written to the outbox in the same transaction. */
  events?: InventoryEvent[];
}

/**
 * Applies a patch and lists the fields whose value really changed. When nothing changed
 * the item is returned untouched (no new updatedAt/updatedBy, no history).
 */
export function applyItemPatch(
  current: FreezerItem,
  patch: ItemPatch,
  change: { by: string; now: Date; newId: () => string },
): ItemUpdate {
  const changedAt = nextChangeTime(change.now, current);
  const next: FreezerItem = { ...current };
  const changes: ChangeLogEntry[] = [];
  for (const field of TRACKED_ITEM_FIELDS) {
    if (!(field in patch) || patch[field] === undefined) continue;
    const oldValue = stringifyChangeValue(current[field]);
    const newValue = stringifyChangeValue(patch[field]);
    if (oldValue === newValue) continue;
    (next as unknown as Record<string, unknown>)[field] = patch[field];
    changes.push({
      id: change.newId(),
      itemId: current.id,
      fieldName: field,
      oldValue,
      newValue,
      changedAt,
      changedById: change.by,
    });
  }
  if (changes.length === 0) return { item: current, changes };
  // Checked on the result: changing the unit of 1.5 kg to bags is as wrong as 1.5 bags.
  if (patch.quantity !== undefined || patch.unit !== undefined) {
    assertQuantityFitsUnit(next.quantity, next.unit, patch.quantity === undefined ? "unit" : "quantity");
  }
  next.updatedAt = changedAt;
  next.updatedById = change.by;
  return { item: next, changes };
}

/**
 * The raw words of a search: runs of letters, digits and combining marks. Anything else
 * (`%`, `_`, quotes, `&`, `|`, `!`, `:`, `*`, brackets, hyphens) separates words, so it can
 * never act as a wildcard or an operator. The SQL adapter folds these words with the
 * database's own `hearth_search_text`, the function the indexed names went through.
 */
export function searchTerms(text: string): string[] {
  return text.split(/[^\p{L}\p{N}\p{M}]+/u).filter((word) => word.length > 0);
}

/**
 * The version of an item an edit can be made conditional on: its `updatedAt` as the item's
 * JSON shows it (ISO 8601 with milliseconds). Every change sets `updatedAt`.
 */
export function itemVersion(item: Pick<FreezerItem, "updatedAt">): string {
  return item.updatedAt.toISOString();
}

/**
 * Search words at least this long (in characters as typed) are also found inside words
 * ("eis" in "Vanilleeis"); shorter ones match word beginnings only. Trigram indexes can
 * only narrow down patterns of three characters or more, and one or two letters inside
 * words would match nearly every name anyway.
 */
export const INFIX_SEARCH_MIN_LENGTH = 3;

/** Whether a search word (one of {@link searchTerms}) is also looked for inside words. */
export function searchesInsideWords(term: string): boolean {
  return [...term.normalize("NFC")].length >= INFIX_SEARCH_MIN_LENGTH;
}
