import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE users (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    name text NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE refresh_tokens (
    id text PRIMARY KEY,
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    family_id text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    rotated_at timestamptz,
    created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`,
    `CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`,
    `CREATE TABLE households (
    id text PRIMARY KEY,
    name text NOT NULL,
    owner_id text NOT NULL REFERENCES users(id),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE memberships (
    id text PRIMARY KEY,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    user_id text NOT NULL REFERENCES users(id),
    role text NOT NULL CHECK (role IN ('OWNER', 'MEMBER')),
    joined_at timestamptz NOT NULL,
    UNIQUE (household_id, user_id)
    )`,
    `CREATE INDEX memberships_user_idx ON memberships (user_id)`,
    `CREATE TABLE invites (
    id text PRIMARY KEY,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    code text NOT NULL UNIQUE,
    created_by text NOT NULL REFERENCES users(id),
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    used_by text REFERENCES users(id),
    created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX invites_household_idx ON invites (household_id)`,
    `CREATE TABLE freezers (
    id text PRIMARY KEY,
    household_id text NOT NULL REFERENCES households(id) ON DELETE CASCADE,
    name text NOT NULL,
    description text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX freezers_household_idx ON freezers (household_id)`,
    `CREATE TABLE compartments (
    id text PRIMARY KEY,
    freezer_id text NOT NULL REFERENCES freezers(id) ON DELETE CASCADE,
    name text NOT NULL,
    position integer NOT NULL DEFAULT 0 CHECK (position >= 0),
    created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX compartments_freezer_idx ON compartments (freezer_id, position, name)`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DROP TABLE compartments`,
    `DROP TABLE freezers`,
    `DROP TABLE invites`,
    `DROP TABLE memberships`,
    `DROP TABLE households`,
    `DROP TABLE refresh_tokens`,
    `DROP TABLE users`,
  ]);
}
