import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Search finds words inside German compounds ("eis" in "Vanilleeis"): a trigram index on the
// folded name (name_folded, stored), folded as the full-text column is built from it (hearth_search_text: unaccented,
// lower-case, punctuation as spaces) serves `LIKE '%word%'` on PostgreSQL and PGlite alike
// (PGlite loads pg_trgm in openDatabase). Search covers names only, so notes stay unindexed.
// pg_trgm is a trusted extension: the database owner may create it without superuser rights.
//
// PostgreSQL 17 and later (PGlite is 18) build indexes with search_path set to pg_catalog
// only, where hearth_search_text could not find unaccent and its dictionary; the function is
// redefined with both named by the extension's schema. A `SET search_path` clause would do
// too but costs a configuration save and restore on every call, that is every row searched.
// The folding is unchanged, so the stored name_search column stays valid.

const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>@[\\]^_`{|}~";

const sqlLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;
const sqlIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

function searchTextFunction(unaccentSchema: string | undefined): string {
  const schema = unaccentSchema === undefined ? "" : `${sqlIdentifier(unaccentSchema)}.`;
  // "?" is chr(63): knex.raw would read a literal "?" as a binding placeholder.
  return `CREATE OR REPLACE FUNCTION hearth_search_text(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(translate(${schema}unaccent(${sqlLiteral(`${schema}unaccent`)}::regdictionary, value), ${sqlLiteral(ASCII_PUNCTUATION)} || chr(63), ${sqlLiteral(" ".repeat(ASCII_PUNCTUATION.length + 1))})) $$`;
}

async function unaccentSchema(knex: Knex): Promise<string> {
  const result = await knex.raw<{ rows: { schema: string }[] }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'`,
  );
  const schema = result.rows[0]?.schema;
  // Migration 20261122000003 created the extension; without it no earlier migration ran.
  if (schema === undefined) throw new Error("The unaccent extension is missing");
  return schema;
}

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    searchTextFunction(await unaccentSchema(knex)),
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    // Stored, not an index expression: the recheck of every candidate row and the name sort
    // would otherwise call the (not inlinable) SQL function per row, which made a common word
    // three times slower in the benchmark.
    `ALTER TABLE freezer_items ADD COLUMN name_folded text GENERATED ALWAYS AS (hearth_search_text(name)) STORED`,
    `CREATE INDEX freezer_items_search_trgm_idx ON freezer_items USING GIN (name_folded gin_trgm_ops)`,
  ]);
}

// The extension stays: other objects in the database may use it, and unused it costs nothing.
export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DROP INDEX freezer_items_search_trgm_idx`,
    `ALTER TABLE freezer_items DROP COLUMN name_folded`,
    searchTextFunction(undefined),
  ]);
}
