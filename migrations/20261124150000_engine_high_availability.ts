import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Hot standby: several processes share one database; one holds the engine lease (a row with
// an expiry read on the database's clock and a fencing token raised on every takeover). The
// automation state and the device registry live here too, so a new leader loads the latest,
// and every cron tick is recorded once, so two leaders never fire the same one.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE engine_leases (
       name text PRIMARY KEY,
       holder text NOT NULL,
       token bigint NOT NULL,
       acquired_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL
     )`,
    `CREATE TABLE engine_documents (
       name text PRIMARY KEY,
       body jsonb NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE engine_cron_fires (
       job_id text NOT NULL,
       fired_at timestamptz NOT NULL,
       token bigint NOT NULL,
       PRIMARY KEY (job_id, fired_at)
     )`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    "DROP TABLE IF EXISTS engine_cron_fires",
    "DROP TABLE IF EXISTS engine_documents",
    "DROP TABLE IF EXISTS engine_leases",
  ]);
}
