import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// A day's expiry reminder used to be recorded as sent (last_sent_on) before it was sent, so a
// crash between the two lost it. Now the day is claimed first (claimed_on, claimed_at), marked
// sent only once the notification service took it, and a claim left behind by a crash is taken
// again once it is older than a short lease: delivery at least once, with the notification
// carrying a key derived from household and day so a repeat replaces the first.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE household_reminders ADD COLUMN claimed_on date`,
    `ALTER TABLE household_reminders ADD COLUMN claimed_at timestamptz`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE household_reminders DROP COLUMN claimed_at`,
    `ALTER TABLE household_reminders DROP COLUMN claimed_on`,
  ]);
}
