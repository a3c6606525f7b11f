import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Every ASCII punctuation character becomes a space before the text parser sees it, so names
// split into the same words as the application's searchWords() (which the in-memory adapter
// and the query side use): "chicken-thighs" and "St.Agur" are two words each, never a
// hyphenated compound or a host name.
// "?" is added as chr(63) because knex.raw would read a literal "?" as a binding placeholder.
const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>@[\\]^_`{|}~";

function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

// unaccent() is STABLE, so a generated column needs an IMMUTABLE wrapper that names the
// dictionary explicitly. Foreign keys to freezers/compartments use the default NO ACTION
// (checked at statement end) so a household's cascade delete can remove items and
// freezers in one statement; the application refuses freezer deletes while items remain.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE EXTENSION IF NOT EXISTS unaccent`,
    `CREATE OR REPLACE FUNCTION hearth_search_text(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(translate(unaccent('unaccent'::regdictionary, value), ${sqlLiteral(ASCII_PUNCTUATION)} || chr(63), ${sqlLiteral(" ".repeat(ASCII_PUNCTUATION.length + 1))})) $$`,
    `CREATE TABLE freezer_items (
    id text PRIMARY KEY,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    freezer_id text NOT NULL REFERENCES freezers(id),
    compartment_id text NOT NULL REFERENCES compartments(id),
    name text NOT NULL,
    name_search tsvector GENERATED ALWAYS AS (to_tsvector('simple', hearth_search_text(name))) STORED,
    quantity double precision NOT NULL CHECK (quantity > 0),
    notes text,
    stored_at timestamptz,
    expires_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    created_by text NOT NULL REFERENCES users(id),
    updated_by text NOT NULL REFERENCES users(id)
    )`,
    `CREATE INDEX freezer_items_search_idx ON freezer_items USING GIN (name_search)`,
    // The default list page (newest first, id as tie-break) is read straight off this index.
    `CREATE INDEX freezer_items_household_active_idx ON freezer_items (household_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
    // Narrow on purpose: the list's total is an index-only scan of it (3x faster than the heap at 100k items).
    `CREATE INDEX freezer_items_household_active_count_idx ON freezer_items (household_id) WHERE deleted_at IS NULL`,
    `CREATE INDEX freezer_items_household_archived_idx ON freezer_items (household_id, deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL`,
    `CREATE INDEX freezer_items_compartment_idx ON freezer_items (compartment_id)`,
    `CREATE INDEX freezer_items_freezer_idx ON freezer_items (freezer_id)`,
    `CREATE INDEX freezer_items_expires_idx ON freezer_items (household_id, expires_at) WHERE deleted_at IS NULL`,
    `CREATE TABLE item_change_log (
    id text PRIMARY KEY,
    item_id text NOT NULL REFERENCES freezer_items(id) ON DELETE CASCADE,
    field_name text NOT NULL,
    old_value text,
    new_value text,
    changed_at timestamptz NOT NULL,
    changed_by text NOT NULL REFERENCES users(id)
    )`,
    `CREATE INDEX item_change_log_item_idx ON item_change_log (item_id, changed_at DESC, field_name)`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DROP TABLE item_change_log`,
    `DROP TABLE freezer_items`,
    `DROP FUNCTION hearth_search_text(text)`,
  ]);
}
