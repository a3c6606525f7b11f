import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// A household's days are its family's local calendar days: "expires today", the expiring list
// and the expiry reminders count them in this IANA zone. Existing households keep UTC.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [`ALTER TABLE households ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC'`]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`ALTER TABLE households DROP COLUMN time_zone`]);
}
