import type { LogFields } from "../../ports/logger.js";
import { redactSecretHeaders } from "../../domain/shared/secret-headers.js";
import { maskSecrets } from "./mask-url.js";

/** How deep nested fields are copied; deeper values become "[Object]" so one entry stays small. */
const MAX_DEPTH = 6;

/**
 * Turns either argument order of a log call into a message and fields: `(msg, fields?)`,
 * `(fields, msg?)` as pino takes them, or `(error, msg?)`, which logs the error under `err`.
 */
export function parseLogCall(first: unknown, second: unknown): { msg: string; fields: LogFields } {
  if (typeof first === "string") {
    return { msg: first, fields: isPlainFields(second) ? second : second === undefined ? {} : { extra: second } };
  }
  const msg = typeof second === "string" ? second : second === undefined ? "" : describe(second);
  if (first instanceof Error) return { msg: msg || first.message, fields: { err: first } };
  if (isPlainFields(first)) return { msg, fields: first };
  return { msg: msg || describe(first), fields: {} };
}

function isPlainFields(value: unknown): value is LogFields {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Error);
}

function describe(value: unknown): string {
  try {
    return typeof value === "symbol" ? value.toString() : String(value);
  } catch {
    // An object whose toString throws or is missing (Object.create(null)).
    return Object.prototype.toString.call(value);
  }
}

/**
 * Fields made safe for every destination: Errors keep name, message and stack (JSON.stringify
 * would give `{}`), secrets in strings and in logged headers are masked, and values JSON cannot carry (BigInt,
 * symbols, functions, cycles) become strings, so writing the entry or serving it from
 * /api/logs can never throw.
 */
export function normaliseFields(fields: LogFields): LogFields {
  const out: LogFields = {};
  const seen = new WeakSet<object>();
  for (const [name, value] of Object.entries(redactSecretHeaders(fields))) {
    if (value === undefined) continue;
    out[name] = loggable(value, seen, 0);
  }
  return out;
}

function loggable(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  switch (typeof value) {
    case "string":
      return maskSecrets(value);
    case "bigint":
      return `${value.toString()}n`;
    case "symbol":
      return value.toString();
    case "function":
      return `[Function ${value.name || "anonymous"}]`;
    case "object":
      break;
    default:
      return value;
  }
  if (value === null || value instanceof Date) return value;
  if (seen.has(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? "[Array]" : "[Object]";
  seen.add(value);
  try {
    if (value instanceof Error) {
      const error: Record<string, unknown> = {
        name: value.name,
        message: maskSecrets(value.message),
        stack: value.stack,
      };
      if (value.cause !== undefined) error.cause = loggable(value.cause, seen, depth + 1);
      return error;
    }
    if (Array.isArray(value)) return value.map((item) => loggable(item, seen, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) copy[key] = loggable(item, seen, depth + 1);
    }
    return copy;
  } catch {
    // A getter that throws, or a proxy that refuses enumeration.
    return "[Unloggable]";
  } finally {
    seen.delete(value);
  }
}
