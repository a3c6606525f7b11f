import { DomainError } from "../shared/domain-error.js";

/**
 * The units a shopping-list entry may be counted in, the same fixed list items use: pieces,
 * portions, bags, grams, kilograms, millilitres, litres.
 */
export const SHOPPING_UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;

export type ShoppingUnit = (typeof SHOPPING_UNITS)[number];

/** Entries one household's shopping list holds at most; adding beyond answers SHOPPING_LIST_FULL. */
export const SHOPPING_LIST_MAX_ENTRIES = 500;

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
