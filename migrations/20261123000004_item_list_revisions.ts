import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// A per-household counter that moves whenever anything a cached item list shows could have
// changed: an item inserted, updated or deleted (by the API, a cascade or a hand-written
// statement alike) or the name or email of a user the household's items point to. The item
// list cache (src/adapters/persistence/item-list-cache.ts) keys its pages by it, which keeps
// every Hearth process sharing one database consistent without any messaging.
//
// The counters live in their own table rather than on `households` on purpose: a household
// delete locks its households row first and only then cascades to the items, while an item
// write locks its item first; bumping a counter on the households row would let the two
// deadlock. Statement-level triggers with transition tables bump once per statement, so a bulk
// insert of 5 000 items costs one counter update, not 5 000.
export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE TABLE household_item_revisions (
    household_id text PRIMARY KEY,
    revision bigint NOT NULL DEFAULT 0
    )`,
    `INSERT INTO household_item_revisions (household_id) SELECT id FROM households`,

    `CREATE FUNCTION hearth_household_revisions_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO household_item_revisions (household_id) SELECT id FROM new_households
        ON CONFLICT (household_id) DO NOTHING;
      ELSE
        DELETE FROM household_item_revisions WHERE household_id IN (SELECT id FROM old_households);
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER households_revision_insert AFTER INSERT ON households
    REFERENCING NEW TABLE AS new_households FOR EACH STATEMENT EXECUTE FUNCTION hearth_household_revisions_sync()`,
    // Statement-level AFTER triggers run after the row-level cascade into freezer_items, so
    // the counter row goes last and a concurrent item write never waits on it in between.
    `CREATE TRIGGER households_revision_delete AFTER DELETE ON households
    REFERENCING OLD TABLE AS old_households FOR EACH STATEMENT EXECUTE FUNCTION hearth_household_revisions_sync()`,

    `CREATE FUNCTION hearth_item_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE household_item_revisions SET revision = revision + 1
        WHERE household_id IN (SELECT household_id FROM new_items);
      ELSIF TG_OP = 'UPDATE' THEN
        UPDATE household_item_revisions SET revision = revision + 1
        WHERE household_id IN (SELECT household_id FROM new_items UNION SELECT household_id FROM old_items);
      ELSE
        UPDATE household_item_revisions SET revision = revision + 1
        WHERE household_id IN (SELECT household_id FROM old_items);
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER freezer_items_revision_insert AFTER INSERT ON freezer_items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION hearth_item_revision_bump()`,
    `CREATE TRIGGER freezer_items_revision_update AFTER UPDATE ON freezer_items
    REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION hearth_item_revision_bump()`,
    `CREATE TRIGGER freezer_items_revision_delete AFTER DELETE ON freezer_items
    REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION hearth_item_revision_bump()`,

    // Item pages embed createdBy/updatedBy (id, email, name), so renaming or anonymising a
    // user must invalidate every household holding items they created or last updated.
    `CREATE FUNCTION hearth_user_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE household_item_revisions SET revision = revision + 1
      WHERE household_id IN (
        SELECT i.household_id FROM freezer_items i
        JOIN new_users n ON n.id = i.created_by OR n.id = i.updated_by
        JOIN old_users o ON o.id = n.id
        WHERE n.name IS DISTINCT FROM o.name OR n.email IS DISTINCT FROM o.email
      );
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER users_revision_update AFTER UPDATE ON users
    REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION hearth_user_revision_bump()`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DROP TRIGGER users_revision_update ON users`,
    `DROP TRIGGER freezer_items_revision_delete ON freezer_items`,
    `DROP TRIGGER freezer_items_revision_update ON freezer_items`,
    `DROP TRIGGER freezer_items_revision_insert ON freezer_items`,
    `DROP TRIGGER households_revision_delete ON households`,
    `DROP TRIGGER households_revision_insert ON households`,
    `DROP FUNCTION hearth_user_revision_bump()`,
    `DROP FUNCTION hearth_item_revision_bump()`,
    `DROP FUNCTION hearth_household_revisions_sync()`,
    `DROP TABLE household_item_revisions`,
  ]);
}
