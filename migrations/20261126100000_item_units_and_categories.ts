import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Units and categories of items.
//
// `unit` is a column with the fixed list as a CHECK: existing items are counted in pieces, as
// the bare quantity always meant. `category_id` is a column on the item rather than a join
// table, so the item list (its hot paths read freezer_items alone) filters and returns the
// category without a join per row; the app names categories from their own list.
//
// Deleting a category uncategorises its items (ON DELETE SET NULL); the update of those rows
// runs the item triggers, so the household's list revision moves and cached pages go stale.
// That a category belongs to the item's household is checked by the statements that write
// items (a composite key with SET NULL of one column needs PostgreSQL 15; 13 is supported).
//
// Every existing household gets the default categories, with ids derived from the household
// and the key (id-shaped: a letter, then hex digits), so a rerun finds the same rows.
const DEFAULTS: [key: string, name: string][] = [
  ["meat", "Meat"],
  ["fish", "Fish"],
  ["vegetables", "Vegetables"],
  ["fruit", "Fruit"],
  ["baked_goods", "Baked goods"],
  ["ready_meals", "Ready meals"],
  ["ice_cream", "Ice cream"],
  ["herbs", "Herbs"],
  ["other", "Other"],
];

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE item_categories (
    id text PRIMARY KEY,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    key text NULL,
    name text NOT NULL,
    position integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
    )`,
    // Names are unique per household ignoring case; the index also serves the household's list.
    `CREATE UNIQUE INDEX item_categories_household_name_idx ON item_categories (household_id, lower(name))`,
    `INSERT INTO item_categories (id, household_id, key, name, position, created_at, updated_at)
    SELECT 'c' || substr(md5(h.id || ':' || d.key), 1, 24), h.id, d.key, d.name, d.position, now(), now()
      FROM households h
      CROSS JOIN (VALUES ${DEFAULTS.map(([key, name], index) => `('${key}', '${name}', ${index})`).join(", ")})
        AS d(key, name, position)
    ON CONFLICT DO NOTHING`,
    `ALTER TABLE freezer_items ADD COLUMN unit text NOT NULL DEFAULT 'piece'
    CHECK (unit IN ('piece', 'portion', 'bag', 'g', 'kg', 'ml', 'l'))`,
    `ALTER TABLE freezer_items ADD COLUMN category_id text NULL REFERENCES item_categories(id) ON DELETE SET NULL`,
    // The category filter of the list and its count, and the per-category summary.
    `CREATE INDEX freezer_items_household_category_idx ON freezer_items (household_id, category_id, expires_at)
    WHERE deleted_at IS NULL`,
    // A chunked import (PGlite) lists the categories it created, to take them back on failure.
    `ALTER TABLE import_batch_rows DROP CONSTRAINT import_batch_rows_kind_check`,
    `ALTER TABLE import_batch_rows ADD CONSTRAINT import_batch_rows_kind_check
    CHECK (kind IN ('freezer', 'compartment', 'category', 'item'))`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DELETE FROM import_batch_rows WHERE kind = 'category'`,
    `ALTER TABLE import_batch_rows DROP CONSTRAINT import_batch_rows_kind_check`,
    `ALTER TABLE import_batch_rows ADD CONSTRAINT import_batch_rows_kind_check
    CHECK (kind IN ('freezer', 'compartment', 'item'))`,
    `DROP INDEX freezer_items_household_category_idx`,
    `ALTER TABLE freezer_items DROP COLUMN category_id`,
    `ALTER TABLE freezer_items DROP COLUMN unit`,
    `DROP TABLE item_categories`,
  ]);
}
