import type { RequestHandler, Response } from "express";
import { z } from "zod";
import "./openapi.js";
import { ValidationError } from "../../../domain/inventory/errors.js";
import type { ErrorDetail } from "./http-errors.js";

/**
 * Ids are CUID2 strings: a lower-case letter, then lower-case letters and digits.
 * Checking the shape at the edge turns garbage ids into a 400 instead of a lookup.
 */
export const idSchema = z
  .string()
  .regex(/^[a-z][a-z0-9]{7,31}$/, "must be an id (CUID2: lower-case letters and digits)");

/**
 * A whole number in a query string, written in plain decimal digits. `z.coerce.number` would
 * also take `1e2`, `0x10` or ` 5`; a parameter given twice (`?page=1&page=2`) arrives as an
 * array and is named as repeated rather than "not a number".
 */
export function queryInteger(limits: { min: number; max: number }) {
  return z
    .unknown()
    .transform((value, context) => {
      if (Array.isArray(value)) {
        context.addIssue({ code: "custom", message: "was given more than once; give it once" });
        return z.NEVER;
      }
      if (typeof value !== "string" || !/^[0-9]+$/.test(value)) {
        context.addIssue({ code: "custom", message: "must be a whole number in decimal digits" });
        return z.NEVER;
      }
      return Number(value);
    })
    .pipe(z.number().min(limits.min, `must be ${limits.min} or more`).max(limits.max, `must be at most ${limits.max}`))
    .openapi({ type: "integer", minimum: limits.min, maximum: limits.max });
}

/** Turns zod issues into `details`, one entry per unknown key so each is named. */
export function issuesToDetails(issues: z.core.$ZodIssue[], prefix = ""): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) details.push({ path: base ? `${base}.${key}` : key, message: "unknown field" });
    } else {
      details.push({ path: base, message: issue.message });
    }
  }
  return details;
}

const WHAT: Record<RequestPart, string> = {
  body: "Request body",
  query: "Query parameters",
  params: "Path parameters",
};

export type RequestPart = "body" | "query" | "params";

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
      return [{ path: pathOf(visit), message: `is nested deeper than ${MAX_BODY_DEPTH} levels` }];
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
  return details;
}

/**
 * Refuses a parsed JSON body nested deeper than MAX_BODY_DEPTH (400), for every route behind
 * the JSON parser, whether or not it validates its body with `parseWith`.
 */
export const refuseDeepBodies: RequestHandler = (req, _res, next) => {
  const problems = req.body !== undefined ? inputShapeDetails(req.body) : [];
  const deep = problems.find((problem) => problem.message.startsWith("is nested deeper"));
  next(deep ? new ValidationError("Request body invalid", [deep]) : undefined);
};

/**
 * Parses a value with a zod schema or throws ValidationError (400 with details). The
 * items router uses this for bodies and queries so every validation error looks alike.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart): z.output<S> {
  const unfit = inputShapeDetails(value);
  if (unfit.length > 0) throw new ValidationError(`${WHAT[part]} invalid`, unfit);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(`${WHAT[part]} invalid`, issuesToDetails(result.error.issues));
}

/**
 * Middleware that validates one part of the request and stores the parsed value in
 * `res.locals.params`, `res.locals.query` or `res.locals.body` (Express 5's req.query is read-only).
 */
export function validate(part: RequestPart, schema: z.ZodType): RequestHandler {
  return (req, res, next) => {
    // Express leaves req.body undefined when no JSON body was sent; validate it as an empty object
    // only for schemas that accept one, so "missing body" is reported per missing field.
    const raw = part === "body" ? (req.body ?? {}) : req[part];
    res.locals[part] = parseWith(schema, raw, part);
    next();
  };
}

/** Parsed request parts put there by `validate`. */
export function parsed<T>(res: Response, part: RequestPart): T {
  return res.locals[part] as T;
}
