import { DomainError } from "../shared/domain-error.js";

/** A number in a value that JSON cannot write: it writes NaN and ±Infinity as `null`. */
export interface NonFiniteNumber {
  /** Dotted path from the value's root ("" for the value itself). */
  path: string;
  number: number;
}

/**
 * The first NaN, Infinity or -Infinity in `value`, at any depth of its arrays and plain
 * objects, or null. A stack of its own and a set of what it has seen: state values may be
 * nested deep or refer to themselves.
 */
export function findNonFiniteNumber(value: unknown): NonFiniteNumber | null {
  if (typeof value === "number") return Number.isFinite(value) ? null : { path: "", number: value };
  if (value === null || typeof value !== "object") return null;
  const seen = new Set<object>();
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string };
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return { path, number: current };
      continue;
    }
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, entry] of entries)
      stack.push({ value: entry, path: path === "" ? String(key) : `${path}.${key}` });
  }
  return null;
}

/**
 * A state value holding NaN or ±Infinity. The state is kept as JSON (the state file, the
 * API, the web UI), which writes such a number as `null`: the value in memory and the one
 * saved would differ, and a restart would bring back `null`. Nothing is changed instead.
 */
export class NonFiniteStateValueError extends DomainError {
  readonly code = "STATE_VALUE_NOT_FINITE" as const;

  constructor(
    readonly key: string,
    found: NonFiniteNumber,
  ) {
    const where = found.path === "" ? "the value" : `the value's ${found.path}`;
    super(
      `State key "${key}" was not set: ${where} is ${String(found.number)}, which JSON cannot hold (it would be saved as null); store null, a string or a finite number`,
    );
  }
}
