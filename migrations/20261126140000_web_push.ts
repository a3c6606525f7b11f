import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Web Push reminders: the browsers' push subscriptions of each member (one row per device,
// keyed by the push service's endpoint URL, which names exactly one browser profile), and each
// member's own reminder settings per household (on or off, local time, days ahead), claimed and
// marked sent per local day like the household's ntfy reminder.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE push_subscriptions (
    endpoint text PRIMARY KEY,
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    p256dh text NOT NULL,
    auth text NOT NULL,
    language text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id)`,
    `CREATE TABLE member_reminders (
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    enabled boolean NOT NULL,
    days_ahead integer NOT NULL,
    time_of_day text NOT NULL,
    last_sent_on date,
    claimed_on date,
    claimed_at timestamptz,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, household_id)
    )`,
    `CREATE INDEX member_reminders_household_idx ON member_reminders (household_id)`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP TABLE member_reminders`, `DROP TABLE push_subscriptions`]);
}
