import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// An item's photo: the item row only carries when its photo was set (the version its URLs
// name), so list queries never touch image bytes; the images themselves live in their own
// table, one row per item, removed with the item (permanent delete, household delete).
// Being in the database, backups, restores and the hot standby carry them.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE freezer_items ADD COLUMN photo_updated_at timestamptz`,
    `CREATE TABLE item_photos (
      item_id text PRIMARY KEY REFERENCES freezer_items(id) ON DELETE CASCADE,
      content_type text NOT NULL,
      thumb bytea NOT NULL,
      display bytea NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP TABLE item_photos`, `ALTER TABLE freezer_items DROP COLUMN photo_updated_at`]);
}
