import type { Knex } from "knex";

/**
 * Runs statements one at a time: PGlite (through knex-pglite) uses the extended query
 * protocol, which accepts a single statement per query, so migrations must not batch.
 */
export async function runStatements(knex: Knex, statements: string[]): Promise<void> {
  for (const statement of statements) await knex.raw(statement);
}
