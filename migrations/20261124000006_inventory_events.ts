import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// The transactional outbox of inventory events (src/adapters/events/): the use cases write
// their events in the same transaction as the change; a dispatcher delivers them after commit.
// `seq` orders a household's events; rows carry no foreign key on purpose, so the events of a
// household deleted meanwhile are still delivered. Delivered rows stay until pruned.
//
// household_reminders holds the expiry-reminder settings and the local date the last reminder
// went out, which is what keeps a restart or a second process from sending one twice.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE inventory_outbox (
    seq bigserial PRIMARY KEY,
    id text NOT NULL UNIQUE,
    household_id text NOT NULL,
    type text NOT NULL,
    occurred_at timestamptz NOT NULL,
    event text NOT NULL,
    delivered_at timestamptz
    )`,
    `CREATE INDEX inventory_outbox_pending_idx ON inventory_outbox (household_id, seq) WHERE delivered_at IS NULL`,
    `CREATE INDEX inventory_outbox_delivered_idx ON inventory_outbox (delivered_at) WHERE delivered_at IS NOT NULL`,
    // Consuming the last units archives the item as used up with quantity 0; active items stay above 0.
    `ALTER TABLE freezer_items DROP CONSTRAINT freezer_items_quantity_check`,
    `ALTER TABLE freezer_items ADD CONSTRAINT freezer_items_quantity_check
    CHECK (quantity > 0 OR (quantity = 0 AND deleted_at IS NOT NULL))`,
    `CREATE TABLE household_reminders (
    household_id text PRIMARY KEY REFERENCES households(id) ON DELETE CASCADE,
    enabled boolean NOT NULL DEFAULT false,
    days_ahead integer NOT NULL DEFAULT 3 CHECK (days_ahead BETWEEN 0 AND 365),
    time_of_day text NOT NULL DEFAULT '18:00',
    channel text,
    last_sent_on date,
    updated_at timestamptz NOT NULL
    )`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DROP TABLE household_reminders`,
    `DELETE FROM freezer_items WHERE quantity = 0`,
    `ALTER TABLE freezer_items DROP CONSTRAINT freezer_items_quantity_check`,
    `ALTER TABLE freezer_items ADD CONSTRAINT freezer_items_quantity_check CHECK (quantity > 0)`,
    `DROP TABLE inventory_outbox`,
  ]);
}
