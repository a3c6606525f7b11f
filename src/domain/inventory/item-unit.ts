import { DomainError } from "../shared/domain-error.js";

/**
 * The units an item's quantity is counted in: a fixed list, so every client can show and
 * translate each one. `piece` is the default, so items and clients from before units keep
 * their meaning ("a number of units").
 */
export const ITEM_UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;
export type ItemUnit = (typeof ITEM_UNITS)[number];

export const DEFAULT_ITEM_UNIT: ItemUnit = "piece";

/**
 * Units counted in whole numbers: nobody freezes 1.5 bags or 2.3 portions. `piece` is not
 * among them: the inventory API has always taken fractions for the bare quantity (half a cake),
 * and the default unit must keep existing clients' requests valid.
 */
export const WHOLE_NUMBER_UNITS: readonly ItemUnit[] = ["portion", "bag"];

/** What a unit measures; amounts convert only within one dimension (g ↔ kg, ml ↔ l). */
const DIMENSION: Record<ItemUnit, { dimension: string; factor: number }> = {
  piece: { dimension: "piece", factor: 1 },
  portion: { dimension: "portion", factor: 1 },
  bag: { dimension: "bag", factor: 1 },
  g: { dimension: "mass", factor: 1 },
  kg: { dimension: "mass", factor: 1000 },
  ml: { dimension: "volume", factor: 1 },
  l: { dimension: "volume", factor: 1000 },
};

/** Whether the unit is a weight or a volume (g, kg, ml, l) rather than counted one by one. */
export function isMeasuredUnit(unit: ItemUnit): boolean {
  const { dimension } = DIMENSION[unit];
  return dimension === "mass" || dimension === "volume";
}

export function isItemUnit(value: unknown): value is ItemUnit {
  return typeof value === "string" && (ITEM_UNITS as readonly string[]).includes(value);
}

/** Whether `quantity` may be counted in `unit` (whole numbers for portions and bags). */
export function quantityFitsUnit(quantity: number, unit: ItemUnit): boolean {
  return !WHOLE_NUMBER_UNITS.includes(unit) || Number.isInteger(quantity);
}

/** Rounds away binary noise (0.3 - 0.1, 250 / 1000) so "all of it" really reaches zero. */
export function roundQuantity(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

/**
 * `quantity` of `from` expressed in `to` (250 g → 0.25 kg); undefined when the units measure
 * different things (grams cannot be taken out of bags).
 */
export function convertQuantity(quantity: number, from: ItemUnit, to: ItemUnit): number | undefined {
  if (from === to) return quantity;
  const source = DIMENSION[from];
  const target = DIMENSION[to];
  if (source.dimension !== target.dimension) return undefined;
  return roundQuantity((quantity * source.factor) / target.factor);
}

/** A quantity that the unit does not allow: a fraction of a whole-number unit. */
export class QuantityNotWholeError extends DomainError {
  readonly code = "QUANTITY_NOT_WHOLE";
  constructor(unit: ItemUnit, path = "quantity", message = `Quantities in ${unit} are whole numbers`) {
    super(message, [{ path, message: `must be a whole number when the unit is ${unit}` }]);
  }
}

/** Taking out an amount in a unit that does not convert to the item's unit. */
export class UnitMismatchError extends DomainError {
  readonly code = "UNIT_MISMATCH";
  constructor(given: ItemUnit, itemUnit: ItemUnit) {
    super(`The item is counted in ${itemUnit}; an amount in ${given} cannot be taken out of it`, [
      { path: "unit", message: `must be ${itemUnit}${convertibleHint(itemUnit)}` },
    ]);
  }
}

function convertibleHint(unit: ItemUnit): string {
  const others = ITEM_UNITS.filter((other) => other !== unit && convertQuantity(1, other, unit) !== undefined);
  return others.length > 0 ? ` or ${others.join(", ")}` : "";
}

/** Throws when `quantity` does not fit `unit`; `path` names the field a caller would correct. */
export function assertQuantityFitsUnit(quantity: number, unit: ItemUnit, path = "quantity"): void {
  if (!quantityFitsUnit(quantity, unit)) throw new QuantityNotWholeError(unit, path);
}
