import { DomainError } from "../shared/domain-error.js";
import type { ChangeLogEntry } from "./change-log-entry.js";
import { convertQuantity, type ItemUnit, isMeasuredUnit } from "./item-unit.js";

/**
 * The units a shopping-list entry may be counted in, the same fixed list items use: pieces,
 * portions, bags, grams, kilograms, millilitres, litres.
 */
export const SHOPPING_UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;

export type ShoppingUnit = (typeof SHOPPING_UNITS)[number];

/** Entries one household's shopping list holds at most; adding beyond answers SHOPPING_LIST_FULL. */
export const SHOPPING_LIST_MAX_ENTRIES = 500;

/** The most one entry may hold, as for items. */
export const SHOPPING_QUANTITY_MAX = 1_000_000;

/** One line of a household's shared shopping list. */
export interface ShoppingListEntry {
  id: string;
  householdId: string;
  name: string;
  quantity: number;
  unit: ShoppingUnit;
  /** The household category it belongs to, or null. */
  categoryId: string | null;
  checked: boolean;
  /**
   * Its place in the list: 0 for the first entry, then 1, 2, … with no gaps. Every write
   * keeps the positions of a household dense and unique.
   */
  position: number;
  createdAt: Date;
  updatedAt: Date;
  createdById: string;
  updatedById: string;
}

/** The fields a member sets on an entry. */
export interface ShoppingListEntryFields {
  name: string;
  quantity: number;
  unit: ShoppingUnit;
  categoryId: string | null;
  checked: boolean;
}

/** The entry does not exist in this household (entries of other households are "not found" too). */
export class ShoppingListEntryNotFoundError extends DomainError {
  readonly code = "SHOPPING_LIST_ENTRY_NOT_FOUND";
  constructor() {
    super("Shopping list entry not found");
  }
}

/** The list already holds {@link SHOPPING_LIST_MAX_ENTRIES} entries. */
export class ShoppingListFullError extends DomainError {
  readonly code = "SHOPPING_LIST_FULL";
  constructor(adding: number) {
    super(
      `The shopping list holds at most ${SHOPPING_LIST_MAX_ENTRIES} entries; remove some before adding ${adding === 1 ? "another" : `${adding} more`}`,
    );
  }
}

/** Stocking the checked entries when none is checked. */
export class NoCheckedEntriesError extends DomainError {
  readonly code = "NO_CHECKED_ENTRIES";
  constructor() {
    super("No entry of the shopping list is checked; check off what you bought first");
  }
}

/**
 * What an entry is to buy, for an import merging a file's list into the household's: the name
 * (ignoring case and spaces at the ends) and the unit. "Milk, 2 l" and "milk, 1 l" are one thing
 * on the list; "Peas, 1 bag" and "Peas, 500 g" are two.
 */
export function shoppingEntryKey(entry: Pick<ShoppingListEntry, "name" | "unit">): string {
  return `${entry.name.trim().toLowerCase()}\u0000${entry.unit}`;
}

/**
 * The unchecked entry an addition of `entry` goes into instead of becoming a second line: the
 * same thing to buy ({@link shoppingEntryKey}) not yet bought. A checked one is in the trolley
 * already, so more of it is a new line.
 */
export function entryToAddTo(
  entries: readonly ShoppingListEntry[],
  entry: Pick<ShoppingListEntry, "name" | "unit">,
): ShoppingListEntry | undefined {
  const key = shoppingEntryKey(entry);
  return inListOrder(entries).find((candidate) => !candidate.checked && shoppingEntryKey(candidate) === key);
}

/** Sorted by position (then id, so a corrupt tie still orders the same everywhere). */
export function inListOrder(entries: readonly ShoppingListEntry[]): ShoppingListEntry[] {
  return [...entries].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The list with `entry` placed at `position` (clamped to the list: 0 is the top, anything at
 * or past the end is the bottom), every other entry keeping its relative order and moving
 * up or down by one to make room; positions come out dense, 0…n-1. `entry` may be new or
 * already in the list (a move).
 */
export function placeEntry(
  entries: readonly ShoppingListEntry[],
  entry: ShoppingListEntry,
  position: number | undefined,
): ShoppingListEntry[] {
  const others = inListOrder(entries).filter((other) => other.id !== entry.id);
  const at = position === undefined ? others.length : Math.max(0, Math.min(Math.trunc(position), others.length));
  others.splice(at, 0, entry);
  return renumber(others);
}

/** The list in its order with positions 0…n-1. */
export function renumber(ordered: readonly ShoppingListEntry[]): ShoppingListEntry[] {
  return ordered.map((entry, index) => (entry.position === index ? entry : { ...entry, position: index }));
}

/**
 * The most an item held in its current unit: its quantity now, or more before take-outs
 * lowered it. A used-up item stands at 0 (taking out the last archives it at 0), so what it
 * held is read back from its change log, newest first, where every quantity change keeps the
 * value before it. A unit change ends the search: quantities before it count something else.
 */
export function mostItemHeld(
  item: { quantity: number },
  history: readonly Pick<ChangeLogEntry, "fieldName" | "oldValue" | "changedAt">[],
): number {
  // The fields of one change share its time.
  const changes = new Map<number, Pick<ChangeLogEntry, "fieldName" | "oldValue">[]>();
  for (const entry of history) {
    const time = entry.changedAt.getTime();
    changes.set(time, [...(changes.get(time) ?? []), entry]);
  }
  let most = item.quantity;
  for (const time of [...changes.keys()].sort((a, b) => b - a)) {
    const fields = changes.get(time) ?? [];
    if (fields.some((field) => field.fieldName === "unit")) break;
    const quantity = fields.find((field) => field.fieldName === "quantity");
    const before = Number(quantity?.oldValue ?? Number.NaN);
    if (Number.isFinite(before)) most = Math.max(most, before);
  }
  return most;
}

/**
 * How much of an item "put on the shopping list" buys when the member does not say: a weight
 * or a volume the most the item held ({@link mostItemHeld}, in the entry's unit: "Mince 500 g",
 * not "1 g"); anything counted one by one (pieces, portions, bags) one, as the list's default.
 */
export function defaultAmountFromItem(
  item: { quantity: number; unit: ItemUnit },
  history: readonly Pick<ChangeLogEntry, "fieldName" | "oldValue" | "changedAt">[],
  entryUnit: ShoppingUnit,
): number {
  if (!isMeasuredUnit(entryUnit)) return 1;
  const amount = convertQuantity(mostItemHeld(item, history), item.unit, entryUnit);
  if (amount === undefined || amount <= 0) return 1;
  return Math.min(amount, SHOPPING_QUANTITY_MAX);
}
