import type { Knex } from "knex";
import { PREPARED } from "./pg-prepared-statements.js";

/**
 * Runs statements one at a time: PGlite (through knex-pglite) uses the extended query
 * protocol, which accepts a single statement per query, so migrations must not batch.
 */
export async function runStatements(knex: Knex, statements: string[]): Promise<void> {
  for (const statement of statements) await knex.raw(statement);
}

/**
 * A statement written with knex's `?` placeholders, numbered once (`$1`, `$2`, …) as PostgreSQL
 * takes them, to run with {@link queryNumbered}. The text must not use `?` for anything else (a
 * jsonb operator, an escaped `\?`): every one becomes a parameter.
 */
export function numbered(text: string): string {
  if (text.includes("\\?")) throw new Error("a numbered statement cannot hold an escaped ?");
  let count = 0;
  return text.replace(/\?/g, () => `$${++count}`);
}

/** What a pooled connection of either database takes: node-postgres's query config form. */
interface NumberedConnection {
  query(config: { text: string; values: readonly unknown[]; prepared: true }): Promise<{ rows: unknown[] }>;
}

/** The part of knex's client (or of a transaction's client, which hands out its one connection) used here. */
interface ConnectionSource {
  acquireConnection(): Promise<NumberedConnection & { __knexUid?: string; __knexTxId?: string }>;
  releaseConnection(connection: NumberedConnection): Promise<unknown>;
  emit(event: "query", query: object): boolean;
}

/**
 * Runs a {@link numbered} statement on a connection of `db`'s pool (inside `db`'s transaction when
 * it is one) as a prepared statement, and returns its rows.
 *
 * The hot item statements go past knex's query runner: for every call of a `knex.raw`, knex scans
 * the 2–3 kB text twice with regular expressions (binding the `?`, then numbering them), copies
 * the query object several times and emits seven events; of those only "query" is kept here
 * (tests count statements by it). That was 8–15 % of the main thread's instructions per item
 * write (docs/performance.md, issue 24).
 * The pool, its limits and its acquire timeout stay knex's. Both databases' connections take the
 * node-postgres query config (database.ts gives the embedded one that form); `prepared` is the
 * mark of pg-prepared-statements.ts, so PostgreSQL runs the text as a named statement.
 */
export async function queryNumbered<Row>(
  db: Knex | Knex.Transaction,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  // knex refuses an undefined binding rather than sending NULL; so does this.
  if (values.includes(undefined)) throw new Error(`Undefined binding(s) detected when running: ${text}`);
  const source = db.client as ConnectionSource;
  const connection = await source.acquireConnection();
  try {
    // knex's "query" event, as knex.raw emits it: what a debugging or counting listener sees stays the same.
    const { __knexUid, __knexTxId } = connection;
    source.emit("query", { __knexUid, __knexTxId, method: "raw", sql: text, bindings: values, options: PREPARED });
    const result = await connection.query({ text, values, ...PREPARED });
    return result.rows as Row[];
  } finally {
    await source.releaseConnection(connection);
  }
}
