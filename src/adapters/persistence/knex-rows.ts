import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";

/** Helpers shared by the knex repositories. */

/** PostgreSQL's unique_violation, also raised by PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "23505";
}

/**
 * PostgreSQL's deadlock_detected: of two transactions that wait for each other's rows, it
 * aborts one, which may simply run again (a household delete against an item stored into it).
 */
export function isDeadlock(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "40P01";
}

/**
 * Runs `attempt` up to `attempts` times while it fails with an error `retryable` accepts: a
 * transaction PostgreSQL aborted against a concurrent one, which may simply run again.
 */
export async function retrying<T>(
  attempts: number,
  retryable: (error: unknown) => boolean,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error) || tried >= attempts) throw error;
    }
  }
}

/** PostgreSQL's foreign_key_violation. */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "23503";
}

/**
 * A write into a household the use case has just checked the caller's membership of. A
 * household deleted in between makes the write fail on its foreign key; the caller then is no
 * member of it, which is the 403 the same request gets after the delete, not a server error.
 */
export async function writeIntoHousehold<T>(write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new NotHouseholdMemberError();
    throw error;
  }
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

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** An entity as its table stores it: each camelCase field under its snake_case column. */
export type Columns<T> = { [K in keyof T & string as SnakeCase<K>]: T[K] };

/** The fields of T that hold a Date (or null). */
type DateField<T> = { [K in keyof T]: T[K] extends Date | null ? (T[K] extends null ? never : K) : never }[keyof T];

// Names are converted once each: a handful of columns, read on every row.
const columnNames = new Map<string, string>();
const fieldNames = new Map<string, string>();

function columnOf(field: string): string {
  let column = columnNames.get(field);
  if (column === undefined) {
    column = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    columnNames.set(field, column);
  }
  return column;
}

function fieldOf(column: string): string {
  let field = fieldNames.get(column);
  if (field === undefined) {
    field = column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    fieldNames.set(column, field);
  }
  return field;
}

/**
 * The row that stores an entity whose table has exactly its fields (users, households,
 * invites, ...); the item table, with its search and placement columns, maps by hand.
 */
export function toColumns<T extends object>(entity: T): Columns<T> {
  const row: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(entity)) row[columnOf(field)] = value;
  return row as Columns<T>;
}

/** The entity a row stores; `dates` are read as Date, since PGlite may hand timestamps back as text. */
export function fromColumns<T extends object>(row: Columns<T>, dates: readonly DateField<T>[]): T {
  const entity: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) entity[fieldOf(column)] = value;
  for (const field of dates) {
    const value = entity[field as string];
    if (value !== null && value !== undefined) entity[field as string] = toDate(value as Date | string);
  }
  return entity as T;
}
