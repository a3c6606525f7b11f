/**
 * Partial deep matching for the test kit's assertions: every field the expectation names
 * must match; fields it leaves out are ignored. A RegExp matches strings, a function is a
 * predicate, arrays match element by element.
 */
export function matchesPartially(actual: unknown, expected: unknown): boolean {
  if (expected instanceof RegExp) return typeof actual === "string" && expected.test(actual);
  if (typeof expected === "function") return (expected as (value: unknown) => boolean)(actual) === true;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => matchesPartially(actual[index], item))
    );
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object") return false;
    return Object.entries(expected).every(([key, value]) =>
      matchesPartially((actual as Record<string, unknown>)[key], value),
    );
  }
  return Object.is(actual, expected);
}

/** A value as an assertion message shows it. */
export function show(value: unknown): string {
  if (value instanceof RegExp) return String(value);
  if (typeof value === "function") return "[predicate]";
  try {
    return JSON.stringify(value, (_key, field: unknown) =>
      field instanceof RegExp ? String(field) : typeof field === "function" ? "[predicate]" : field,
    );
  } catch {
    return String(value);
  }
}
