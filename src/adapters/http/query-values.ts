import { z } from "zod";

/** What a query parameter given twice (`?limit=1&limit=2`) is told, on both HTTP surfaces. */
export const REPEATED_PARAMETER_MESSAGE = "was given more than once; give it once";

/**
 * A zod transform step that passes a query parameter's one value on. Express's query parser
 * makes a parameter given twice an array; taking its first or its last value would answer a
 * question the caller did not ask, so it is an issue on that parameter instead.
 */
export function singleQueryValue(value: unknown, context: z.RefinementCtx): unknown {
  if (!Array.isArray(value)) return value;
  context.addIssue({ code: "custom", message: REPEATED_PARAMETER_MESSAGE });
  return z.NEVER;
}
