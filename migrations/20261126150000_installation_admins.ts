import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Accounts get an installation role: admins run the house (the engine's pages and routes under
// /api/v1/house) and grant or revoke admin. On an installation that already has accounts, the
// earliest registered active person (not a deleted account, not an automation's actor account)
// becomes the admin, as the first account registered does on a new installation.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'))`,
    `CREATE INDEX users_admins ON users (created_at) WHERE role = 'admin'`,
    `UPDATE users SET role = 'admin'
      WHERE id = (
        SELECT id FROM users
         WHERE deleted_at IS NULL AND email NOT LIKE '%@automations.invalid'
         ORDER BY created_at, id
         LIMIT 1
      )`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [`DROP INDEX users_admins`, `ALTER TABLE users DROP COLUMN role`]);
}
