import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// On embedded PGlite (one connection) an import is written in short transactions so other
// requests are answered in between. What each import has written so far is listed here, so a
// failed import, or one cut short by a crash, can be taken back (the import is all or
// nothing). A finished import's list is deleted; an unfinished one is undone at the next start.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE import_batches (
       id text PRIMARY KEY,
       household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
       started_at timestamptz NOT NULL,
       completed_at timestamptz
     )`,
    `CREATE TABLE import_batch_rows (
       batch_id text NOT NULL REFERENCES import_batches(id) ON DELETE CASCADE,
       kind text NOT NULL CHECK (kind IN ('freezer', 'compartment', 'item')),
       row_id text NOT NULL,
       PRIMARY KEY (batch_id, kind, row_id)
     )`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP TABLE import_batch_rows`, `DROP TABLE import_batches`]);
}
