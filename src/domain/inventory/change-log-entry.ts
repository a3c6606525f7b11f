import type { UserSummary } from "./user.js";

/** One field change of one item, as written by a PATCH. Values are stringified. */
export interface ChangeLogEntry {
  id: string;
  itemId: string;
  fieldName: string;
  oldValue: string | null;
  newValue: string | null;
  changedAt: Date;
  changedById: string;
}

export interface ChangeLogEntryView extends ChangeLogEntry {
  changedBy: UserSummary;
}

/** Renders a number without exponent notation (1e21 → "1000000000000000000000"). */
function plainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa = "", exponentText] = text.toLowerCase().split("e");
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith("-");
  const [whole = "", fraction = ""] = mantissa.replace("-", "").split(".");
  const digits = whole + fraction;
  const pointAt = whole.length + exponent;
  let result: string;
  if (pointAt <= 0) result = `0.${"0".repeat(-pointAt)}${digits}`;
  else if (pointAt >= digits.length) result = digits + "0".repeat(pointAt - digits.length);
  else result = `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  return negative ? `-${result}` : result;
}

/**
 * How a field value is written into the change log: numbers in plain decimal,
 * timestamps as ISO-8601, null as null, strings as they are.
 */
export function stringifyChangeValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number") return plainDecimal(value);
  return String(value);
}
