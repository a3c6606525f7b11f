import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// A product's barcode on an item, and what a household remembers for a code, so the second scan
// of the same product fills in the form. The API validates codes (domain/inventory/barcode.ts);
// the checks here only keep a row from holding more than the API ever writes.
// unit and category_id are plain columns: the item's own unit and categories arrive separately,
// and category_id gets its foreign key once the categories table exists.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE freezer_items ADD COLUMN barcode text CHECK (char_length(barcode) BETWEEN 1 AND 64)`,
    `CREATE TABLE household_barcodes (
       household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
       code text NOT NULL CHECK (char_length(code) BETWEEN 1 AND 64),
       name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
       unit text CHECK (unit IN ('piece', 'portion', 'bag', 'g', 'kg', 'ml', 'l')),
       category_id text CHECK (char_length(category_id) BETWEEN 1 AND 64),
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (household_id, code)
     )`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP TABLE household_barcodes`, `ALTER TABLE freezer_items DROP COLUMN barcode`]);
}
