import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// A household's shared shopping list. Positions are dense (0…n-1) per household; the writes
// that keep them so hold the household row's lock (SELECT … FOR NO KEY UPDATE, which item
// inserts' foreign-key checks do not wait for), so no unique index is needed and a move can
// shift its neighbours with plain UPDATEs.
//
// unit repeats the items' fixed list of units; category_id has no foreign key yet: categories
// arrive in their own migration, which can add it. created_by / updated_by are user ids kept as
// text like the outbox's actors: an account deleted later leaves its entries on the list.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE shopping_list_entries (
    id text PRIMARY KEY,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    quantity double precision NOT NULL CHECK (quantity > 0),
    unit text NOT NULL DEFAULT 'piece' CHECK (unit IN ('piece', 'portion', 'bag', 'g', 'kg', 'ml', 'l')),
    category_id text,
    checked boolean NOT NULL DEFAULT false,
    position integer NOT NULL CHECK (position >= 0),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    created_by text NOT NULL,
    updated_by text NOT NULL
    )`,
    `CREATE INDEX shopping_list_entries_household_position_idx ON shopping_list_entries (household_id, position)`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP TABLE shopping_list_entries`]);
}
