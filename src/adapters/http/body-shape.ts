import type { RequestHandler } from "express";
import type { ErrorDetail } from "../../domain/shared/domain-error.js";
import { ValidationError } from "../../domain/shared/validation-error.js";

/** What input holding a NUL character is told, on every route and in import rows. */
export const NUL_CHARACTER_MESSAGE = "must not contain NUL characters";

/**
 * The fields of a flat record (an import row) whose text holds a NUL character. Only the top
 * level is looked at: a row's fields are plain values, and anything nested is refused by the
 * row's schema anyway, so an untrusted depth is never walked.
 */
export function fieldsWithNulCharacters(record: unknown): string[] {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return [];
  return Object.entries(record)
    .filter(([, value]) => typeof value === "string" && value.includes("\u0000"))
    .map(([field]) => field);
}

/** Deepest nesting a request body may have; no Hearth body needs more than a few levels. */
export const MAX_BODY_DEPTH = 32;

/** Most NUL findings one answer lists. */
const MAX_NUL_DETAILS = 20;

/** A value met while walking a body, with the way back to the root to name its path. */
interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
  depth: number;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
}

/**
 * What makes input unfit before its schema is even asked: NUL characters (U+0000), which
 * PostgreSQL text cannot store and refuses even to compare with, so such input must stop here
 * as a 400 instead of failing in the database as a 500; and nesting deeper than
 * MAX_BODY_DEPTH. The walk keeps its own stack: JSON.parse builds a 50 000-deep array from a
 * 100 kB body without complaint, and a recursive walk over it overflows the call stack (a 500).
 */
export function inputShapeDetails(value: unknown): ErrorDetail[] {
  const shape = walkShape(value);
  return shape.tooDeep ? [shape.tooDeep] : shape.nul;
}

/** What the walk found: where the nesting went too deep (the walk stops there), else the NULs. */
interface BodyShape {
  tooDeep: ErrorDetail | null;
  nul: ErrorDetail[];
}

function walkShape(value: unknown): BodyShape {
  const details: ErrorDetail[] = [];
  const stack: Visit[] = [{ value, key: "", parent: null, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    if (typeof visit.value === "string") {
      if (details.length < MAX_NUL_DETAILS && visit.value.includes("\u0000"))
        details.push({ path: pathOf(visit), message: NUL_CHARACTER_MESSAGE });
      continue;
    }
    if (visit.value === null || typeof visit.value !== "object") continue;
    if (visit.depth >= MAX_BODY_DEPTH) {
      return { tooDeep: { path: pathOf(visit), message: `is nested deeper than ${MAX_BODY_DEPTH} levels` }, nul: [] };
    }
    const entries = Array.isArray(visit.value)
      ? visit.value.map((entry, index) => [String(index), entry] as const)
      : Object.entries(visit.value);
    // Pushed in reverse so the findings come out in document order.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, entry] = entries[index] as readonly [string, unknown];
      stack.push({ value: entry, key, parent: visit, depth: visit.depth + 1 });
    }
  }
  return { tooDeep: null, nul: details };
}

/**
 * Refuses a parsed JSON body nested deeper than MAX_BODY_DEPTH (400), for every route behind
 * the JSON parser, whether or not it validates its body with `parseWith`.
 */
export const refuseDeepBodies: RequestHandler = (req, _res, next) => {
  const { tooDeep } = req.body !== undefined ? walkShape(req.body) : { tooDeep: null };
  next(tooDeep ? new ValidationError("Request body invalid", [tooDeep]) : undefined);
};
