import type { RequestHandler, Response } from "express";
import { z } from "zod";
import "./openapi.js";
import { ValidationError } from "../../../domain/shared/validation-error.js";
import type { ErrorDetail } from "./http-errors.js";
import { inputShapeDetails } from "../body-shape.js";
import { singleQueryValue } from "../query-values.js";

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
    .transform(singleQueryValue)
    .transform((value, context) => {
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
