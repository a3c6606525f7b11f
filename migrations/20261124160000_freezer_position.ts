import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Freezers get a display order the family can change, as compartments have. Existing freezers
// keep the order they were listed in before (oldest first), numbered from 0 per household.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE freezers ADD COLUMN position integer NOT NULL DEFAULT 0`,
    `UPDATE freezers f SET position = numbered.rank FROM (
       SELECT id, (row_number() OVER (PARTITION BY household_id ORDER BY created_at, id) - 1)::integer AS rank
       FROM freezers) numbered
     WHERE numbered.id = f.id`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`ALTER TABLE freezers DROP COLUMN position`]);
}
