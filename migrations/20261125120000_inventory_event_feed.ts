import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// The household event stream reads the outbox by a cursor of (writing transaction id, seq).
// `seq` alone is not safe: two transactions draw their seq values and commit in either order,
// so a reader that saw seq 11 may later find seq 10 committed. A reader takes only rows of
// transactions older than every transaction still running (the snapshot's xmin); rows it has
// not seen yet then always come from younger transactions, so ordering by (tx, seq) never
// places a new row behind the cursor. The id is stored as bigint (xid8 values stay far below 2^63).
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE inventory_outbox ADD COLUMN tx bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint)`,
    `CREATE INDEX inventory_outbox_feed_idx ON inventory_outbox (tx, seq)`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP INDEX inventory_outbox_feed_idx`, `ALTER TABLE inventory_outbox DROP COLUMN tx`]);
}
