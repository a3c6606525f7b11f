import { DomainError } from "../shared/domain-error.js";

/**
 * Product barcodes. A code is what a scanner reads from the package:
 *
 * - GTINs (EAN-8, UPC-E, UPC-A, EAN-13, GTIN-14): only digits; spaces and hyphens typed between
 *   the digits (as printed under the bars) are dropped. Their last digit is a check digit, which
 *   must match, so a mistyped code is refused instead of remembered. A UPC-A (12 digits) is kept
 *   in its EAN-13 form (a leading 0): scanners report the same package either way, and the
 *   household should recognise it both times.
 * - Any other code (Code 128, Code 39, ITF, a shop's own labels): 1–64 letters, digits, `-`, `.`,
 *   `_` and `~`, the characters that stay themselves in a URL path (the code is one in
 *   `/barcodes/:code`), with at least one letter or digit.
 */
export const BARCODE_MAX_LENGTH = 64;

const OTHER_CODE = /^[A-Za-z0-9._~-]{1,64}$/;
const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/** The GTIN check digit of `body` (every digit but the check digit): weights 3,1,3,… from the right. */
function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) {
    const digit = Number(body[body.length - 1 - index]);
    sum += index % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

function hasGtinCheckDigit(code: string): boolean {
  return gtinCheckDigit(code.slice(0, -1)) === Number(code.at(-1));
}

/** The UPC-A a UPC-E (number system 0 or 1, six digits, check digit) stands for, without its check digit. */
function expandUpcE(code: string): string | undefined {
  const system = code[0];
  if (system !== "0" && system !== "1") return undefined;
  const d = code.slice(1, 7);
  const last = d[5];
  let body: string;
  if (last === "0" || last === "1" || last === "2") body = `${d.slice(0, 2)}${last}0000${d.slice(2, 5)}`;
  else if (last === "3") body = `${d.slice(0, 3)}00000${d.slice(3, 5)}`;
  else if (last === "4") body = `${d.slice(0, 4)}00000${d[4]}`;
  else body = `${d.slice(0, 5)}0000${last}`;
  return `${system}${body}`;
}

function isUpcE(code: string): boolean {
  const expanded = expandUpcE(code);
  return expanded !== undefined && gtinCheckDigit(expanded) === Number(code[7]);
}

/** Why `text` is not a barcode, or its stored form. */
export function parseBarcode(text: string): { code: string } | { problem: string } {
  const trimmed = text.trim();
  const digits = trimmed.replace(/[\s-]+/g, "");
  if (/^\d+$/.test(digits) && GTIN_LENGTHS.has(digits.length)) {
    const valid = digits.length === 8 ? hasGtinCheckDigit(digits) || isUpcE(digits) : hasGtinCheckDigit(digits);
    if (!valid) return { problem: "the check digit (the last digit) does not match; check the code for a typo" };
    return { code: digits.length === 12 ? `0${digits}` : digits };
  }
  if (trimmed.length === 0) return { problem: "must not be empty" };
  if (trimmed.length > BARCODE_MAX_LENGTH) return { problem: `must be at most ${BARCODE_MAX_LENGTH} characters` };
  if (!OTHER_CODE.test(trimmed) || !/[A-Za-z0-9]/.test(trimmed)) {
    return { problem: "may hold only letters, digits, -, ., _ and ~ (and needs a letter or digit)" };
  }
  return { code: trimmed };
}

/** The units a remembered product may carry (the item's unit list). */
export const BARCODE_UNITS = ["piece", "portion", "bag", "g", "kg", "ml", "l"] as const;
export type BarcodeUnit = (typeof BARCODE_UNITS)[number];

/** What a household remembers about a code: the form's fields to fill in on the next scan. */
export interface RememberedBarcode {
  householdId: string;
  code: string;
  name: string;
  unit: BarcodeUnit | null;
  categoryId: string | null;
  updatedAt: Date;
}

/** What a product lookup (Open Food Facts) tells about a code the household has not seen. */
export interface LookedUpProduct {
  name: string;
}

/** Neither the household nor the product lookup (if on) knows the code. */
export class BarcodeNotFoundError extends DomainError {
  readonly code = "BARCODE_NOT_FOUND";
  constructor() {
    super("This barcode is not known yet: enter the product's name");
  }
}
