/** Helpers shared by the knex repositories. */

/** PostgreSQL's unique_violation, also raised by PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "23505";
}

/** PostgreSQL's foreign_key_violation. */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "23503";
}

/** node-postgres returns Date for timestamptz; PGlite may too, but be tolerant of strings. */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toDateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : toDate(value);
}

/**
 * Rows a delete touched. knex-pglite hands back the raw result object for DELETE where
 * node-postgres gives a number, so read either form.
 */
export function affectedRows(result: unknown): number {
  if (typeof result === "number") return result;
  const raw = result as { rowCount?: number | null; affectedRows?: number } | null;
  return raw?.rowCount ?? raw?.affectedRows ?? 0;
}
