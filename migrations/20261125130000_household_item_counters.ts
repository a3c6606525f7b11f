import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

/** How many counter rows a household may have; a writer uses the one of its connection. */
const SHARDS = 16;

// Exact item counts per household, kept by the statements that write items, and the list
// revision beside them (it moved on one row per household before).
//
// One row per household made every item write of a household queue behind the previous one:
// the trigger's UPDATE held that row's lock until commit, i.e. across the commit's WAL flush,
// so 16 connections inserting into one household wrote one after the other. Now a household
// has up to 16 counter rows (shards) and a statement bumps the row of its own connection
// (`pg_backend_pid() % 16`), so writers on different connections do not wait for each other.
// Readers sum the shards: a household's revision is the sum of its shards' revisions, which
// moves with every committed write and never goes back (every bump adds 1 and a later snapshot
// sees a superset of the commits an earlier one saw), which is all the list cache needs; the
// counts are the sums of per-shard deltas (a shard may hold a negative count).
//
// Like the table it replaces, it has no foreign key on purpose (a household delete locks its
// households row first, then cascades to the items, whose triggers touch these rows): the
// statement-level trigger on households removes a deleted household's rows after the cascade.
// `household_item_revisions` stays as a view for anything reading the revision by that name.
/** The statement that adds a write's per-household deltas to the writer's shard. */
function bumpCounters(operation: "insert" | "update" | "delete"): string {
  const rows: string[] = [];
  if (operation !== "delete") {
    rows.push(`SELECT household_id, (deleted_at IS NULL)::int AS active, (deleted_at IS NOT NULL)::int AS archived
            FROM new_items`);
  }
  if (operation !== "insert") {
    rows.push(`SELECT household_id, -(deleted_at IS NULL)::int AS active, -(deleted_at IS NOT NULL)::int AS archived
            FROM old_items`);
  }
  return `INSERT INTO household_item_counters AS c (household_id, shard, revision, active, archived)
      SELECT d.household_id, (pg_backend_pid() % ${SHARDS})::smallint, 1, sum(d.active), sum(d.archived)
        FROM (${rows.join("\n          UNION ALL\n          ")}) d
       -- Not for a household this transaction deleted: a cascade's trigger may run after the
       -- household's own, which removed its rows.
       WHERE EXISTS (SELECT 1 FROM households h WHERE h.id = d.household_id)
       GROUP BY d.household_id
       ORDER BY d.household_id
      ON CONFLICT (household_id, shard) DO UPDATE
        SET revision = c.revision + 1, active = c.active + excluded.active, archived = c.archived + excluded.archived;`;
}

export async function up(knex: Knex): Promise<void> {
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

    `CREATE TABLE household_item_counters (
    household_id text NOT NULL,
    shard smallint NOT NULL,
    revision bigint NOT NULL DEFAULT 0,
    active bigint NOT NULL DEFAULT 0,
    archived bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (household_id, shard)
    )`,
    // Backfill: the counts as they are, the revision carried on (shard 0).
    `INSERT INTO household_item_counters (household_id, shard, revision, active, archived)
    SELECT h.id, 0, COALESCE(r.revision, 0),
           (SELECT count(*) FROM freezer_items i WHERE i.household_id = h.id AND i.deleted_at IS NULL),
           (SELECT count(*) FROM freezer_items i WHERE i.household_id = h.id AND i.deleted_at IS NOT NULL)
      FROM households h LEFT JOIN household_item_revisions r ON r.household_id = h.id`,
    `DROP TABLE household_item_revisions`,
    `CREATE VIEW household_item_revisions AS
    SELECT household_id, sum(revision)::bigint AS revision FROM household_item_counters GROUP BY household_id`,

    `CREATE FUNCTION hearth_household_counters_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO household_item_counters (household_id, shard) SELECT id, 0 FROM new_households
        ON CONFLICT (household_id, shard) DO NOTHING;
      ELSE
        DELETE FROM household_item_counters WHERE household_id IN (SELECT id FROM old_households);
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER households_counters_insert AFTER INSERT ON households
    REFERENCING NEW TABLE AS new_households FOR EACH STATEMENT EXECUTE FUNCTION hearth_household_counters_sync()`,
    // Statement-level AFTER triggers run after the row-level cascade into freezer_items, so
    // the rows the cascade's own trigger bumped are gone too.
    `CREATE TRIGGER households_counters_delete AFTER DELETE ON households
    REFERENCING OLD TABLE AS old_households FOR EACH STATEMENT EXECUTE FUNCTION hearth_household_counters_sync()`,

    // Deltas per household, applied in household order (two statements touching the same
    // households lock their rows in the same order). A function names only the transition
    // tables its trigger declares, hence one per operation.
    ...(["insert", "update", "delete"] as const).map(
      (operation) => `CREATE FUNCTION hearth_item_counters_${operation}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${bumpCounters(operation)}
      RETURN NULL;
    END $$`,
    ),
    `CREATE TRIGGER freezer_items_counters_insert AFTER INSERT ON freezer_items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION hearth_item_counters_insert()`,
    `CREATE TRIGGER freezer_items_counters_update AFTER UPDATE ON freezer_items
    REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION hearth_item_counters_update()`,
    `CREATE TRIGGER freezer_items_counters_delete AFTER DELETE ON freezer_items
    REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION hearth_item_counters_delete()`,

    // Item pages embed createdBy/updatedBy (id, email, name), so renaming or anonymising a
    // user must move the revision of every household holding items they created or last updated.
    `CREATE FUNCTION hearth_user_counters_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO household_item_counters AS c (household_id, shard, revision)
      SELECT DISTINCT i.household_id, (pg_backend_pid() % ${SHARDS})::smallint, 1
        FROM freezer_items i
        JOIN new_users n ON n.id = i.created_by OR n.id = i.updated_by
        JOIN old_users o ON o.id = n.id
       WHERE n.name IS DISTINCT FROM o.name OR n.email IS DISTINCT FROM o.email
       ORDER BY 1
      ON CONFLICT (household_id, shard) DO UPDATE SET revision = c.revision + 1;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER users_counters_update AFTER UPDATE ON users
    REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION hearth_user_counters_bump()`,

    // The count of a filtered list (compartments, freezer, expiry) reads only this index; the
    // unfiltered one reads the counters, so the narrow count index is no longer needed.
    `CREATE INDEX freezer_items_household_placement_idx ON freezer_items (household_id, compartment_id, expires_at)
    INCLUDE (freezer_id) WHERE deleted_at IS NULL`,
    `DROP INDEX freezer_items_household_active_count_idx`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `CREATE INDEX freezer_items_household_active_count_idx ON freezer_items (household_id) WHERE deleted_at IS NULL`,
    `DROP INDEX freezer_items_household_placement_idx`,
    `DROP TRIGGER users_counters_update ON users`,
    `DROP TRIGGER freezer_items_counters_delete ON freezer_items`,
    `DROP TRIGGER freezer_items_counters_update ON freezer_items`,
    `DROP TRIGGER freezer_items_counters_insert ON freezer_items`,
    `DROP TRIGGER households_counters_delete ON households`,
    `DROP TRIGGER households_counters_insert ON households`,
    `DROP FUNCTION hearth_user_counters_bump()`,
    `DROP FUNCTION hearth_item_counters_delete()`,
    `DROP FUNCTION hearth_item_counters_update()`,
    `DROP FUNCTION hearth_item_counters_insert()`,
    `DROP FUNCTION hearth_household_counters_sync()`,
    `DROP VIEW household_item_revisions`,
    `CREATE TABLE household_item_revisions (
    household_id text PRIMARY KEY,
    revision bigint NOT NULL DEFAULT 0
    )`,
    `INSERT INTO household_item_revisions (household_id, revision)
    SELECT household_id, sum(revision) FROM household_item_counters GROUP BY household_id`,
    `DROP TABLE household_item_counters`,
    // Recreates the single-row triggers of 20261123000004.
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
