import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// Every household has exactly one OWNER membership, and it is the member households.owner_id
// names. The use cases keep this under row locks; the database enforces it too, so no future
// code path (or hand-written SQL) can leave a household without an owner who can act.
//
// At most one OWNER per household: a partial unique index, checked at once (so a transfer
// demotes the old owner before promoting the new one). Exactly one, matching owner_id: a
// constraint trigger deferred to commit, since creating a household inserts the household
// and its owner's membership one after the other.

export async function up(knex: Knex): Promise<void> {
  await runStatements(knex, [
    // Repair what earlier races could leave behind, before the rules apply. Another OWNER
    // than owner_id steps down; the member owner_id names becomes OWNER.
    `UPDATE memberships m SET role = 'MEMBER' FROM households h
     WHERE h.id = m.household_id AND m.role = 'OWNER' AND m.user_id <> h.owner_id`,
    // A household whose owner_id names no member (an owner who deleted their account while
    // becoming owner) passes to its longest-standing member.
    `UPDATE households h SET owner_id = (
       SELECT m.user_id FROM memberships m WHERE m.household_id = h.id ORDER BY m.joined_at, m.id LIMIT 1)
     WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.household_id = h.id AND m.user_id = h.owner_id)
       AND EXISTS (SELECT 1 FROM memberships m WHERE m.household_id = h.id)`,
    `UPDATE memberships m SET role = 'OWNER' FROM households h
     WHERE h.id = m.household_id AND m.user_id = h.owner_id AND m.role <> 'OWNER'`,
    // A household left with no members at all whose owner's account still exists gets its
    // owner back as a member; one whose owner is gone too cannot be repaired and stays as it is
    // (it is reachable by nobody, and deleting it is the only change the rules below allow).
    `INSERT INTO memberships (id, household_id, user_id, role, joined_at)
     SELECT 'm' || substr(md5(h.id || 'owner'), 1, 24), h.id, h.owner_id, 'OWNER', h.created_at
     FROM households h JOIN users u ON u.id = h.owner_id AND u.deleted_at IS NULL
     WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.household_id = h.id)`,

    `CREATE UNIQUE INDEX memberships_one_owner ON memberships (household_id) WHERE role = 'OWNER'`,
    `CREATE FUNCTION hearth_household_owner_check() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      target text;
      owners integer;
      matching integer;
    BEGIN
      IF TG_TABLE_NAME = 'households' THEN
        target := COALESCE(NEW.id, OLD.id);
      ELSE
        target := COALESCE(NEW.household_id, OLD.household_id);
      END IF;
      -- A household deleted in the same transaction has nothing left to check.
      IF NOT EXISTS (SELECT 1 FROM households WHERE id = target) THEN
        RETURN NULL;
      END IF;
      SELECT count(*), count(*) FILTER (WHERE m.user_id = h.owner_id)
        INTO owners, matching
        FROM memberships m JOIN households h ON h.id = m.household_id
        WHERE m.household_id = target AND m.role = 'OWNER';
      IF owners <> 1 OR matching <> 1 THEN
        RAISE EXCEPTION 'household % must have exactly one OWNER membership, the member its owner_id names', target
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE CONSTRAINT TRIGGER memberships_owner_check AFTER INSERT OR UPDATE OR DELETE ON memberships
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hearth_household_owner_check()`,
    `CREATE CONSTRAINT TRIGGER households_owner_check AFTER INSERT OR UPDATE OF owner_id ON households
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hearth_household_owner_check()`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `DROP TRIGGER households_owner_check ON households`,
    `DROP TRIGGER memberships_owner_check ON memberships`,
    `DROP FUNCTION hearth_household_owner_check()`,
    `DROP INDEX memberships_one_owner`,
  ]);
}
