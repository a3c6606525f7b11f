import type { Knex } from "knex";

// Proves the migration path on both engines and records which Hearth version created the database.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE hearth_meta (
      key text PRIMARY KEY,
      value text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )
  `);
  await knex.raw(`INSERT INTO hearth_meta (key, value) VALUES ('created_by_version', '0.1.0')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE hearth_meta");
}
