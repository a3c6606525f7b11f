import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { runStatements } from "../src/adapters/persistence/sql-statements.js";

// An item's freezer and compartment belong to the item's household, and its compartment is in
// its freezer: composite foreign keys say so, so no code path (an import that wrote another
// household's ids, a hand-written statement) can cross households again.
//
// Rows an earlier import crossed are repaired first, so the keys can be added and the start
// never fails on them: each is reported (household, item, where it was) and moved
//  - into its compartment's freezer, when that freezer is the item's household's own;
//  - otherwise into a freezer "Recovered items" (compartment "Recovered") created in the item's
//    own household, where its family finds it and moves it on.
// Either way the other household gets its freezer and compartment back to delete as usual.

const SHOWN = 100;

interface CrossedItem {
  id: string;
  household_id: string;
  freezer_id: string;
  compartment_id: string;
  freezer_household_id: string;
  compartment_freezer_id: string;
  compartment_household_id: string;
}

/** A stable id of the id shape (a letter, then letters and digits): a rerun finds the same freezer. */
function recoveryId(kind: "freezer" | "compartment", householdId: string): string {
  return `r${createHash("sha256").update(`hearth-recovered-${kind}:${householdId}`).digest("hex").slice(0, 24)}`;
}

async function repairCrossedItems(knex: Knex, report: (message: string) => void): Promise<void> {
  const crossed = await knex.raw<{ rows: CrossedItem[] }>(
    `SELECT i.id, i.household_id, i.freezer_id, i.compartment_id, f.household_id AS freezer_household_id,
       c.freezer_id AS compartment_freezer_id, cf.household_id AS compartment_household_id
     FROM freezer_items i
     JOIN freezers f ON f.id = i.freezer_id
     JOIN compartments c ON c.id = i.compartment_id
     JOIN freezers cf ON cf.id = c.freezer_id
     WHERE f.household_id <> i.household_id OR c.freezer_id <> i.freezer_id
     ORDER BY i.household_id, i.id`,
  );
  if (crossed.rows.length === 0) return;
  report(
    `Found ${crossed.rows.length} item(s) stored in a freezer or compartment that is not their household's (written by an import before this version); moving each back into its own household`,
  );
  const now = new Date();
  const recovered = new Map<string, { freezerId: string; compartmentId: string }>();
  for (const [index, item] of crossed.rows.entries()) {
    let target: { freezerId: string; compartmentId: string };
    if (item.compartment_household_id === item.household_id) {
      target = { freezerId: item.compartment_freezer_id, compartmentId: item.compartment_id };
    } else {
      let recovery = recovered.get(item.household_id);
      if (!recovery) {
        recovery = {
          freezerId: recoveryId("freezer", item.household_id),
          compartmentId: recoveryId("compartment", item.household_id),
        };
        const last = await knex("freezers").where({ household_id: item.household_id }).max({ position: "position" });
        const position =
          last[0]?.position === null || last[0]?.position === undefined ? 0 : Number(last[0].position) + 1;
        await knex("freezers")
          .insert({
            id: recovery.freezerId,
            household_id: item.household_id,
            name: "Recovered items",
            description: "Items an import had stored in another household's freezer, moved here by the upgrade",
            position,
            created_at: now,
            updated_at: now,
          })
          .onConflict("id")
          .ignore();
        await knex("compartments")
          .insert({
            id: recovery.compartmentId,
            freezer_id: recovery.freezerId,
            name: "Recovered",
            position: 0,
            created_at: now,
          })
          .onConflict("id")
          .ignore();
        recovered.set(item.household_id, recovery);
      }
      target = recovery;
    }
    await knex("freezer_items")
      .where({ id: item.id })
      .update({ freezer_id: target.freezerId, compartment_id: target.compartmentId });
    if (index < SHOWN) {
      report(
        `Item ${item.id} of household ${item.household_id} was in freezer ${item.freezer_id} (household ${item.freezer_household_id}), compartment ${item.compartment_id} (freezer ${item.compartment_freezer_id}); moved to freezer ${target.freezerId}, compartment ${target.compartmentId}`,
      );
    }
  }
  if (crossed.rows.length > SHOWN) report(`… and ${crossed.rows.length - SHOWN} more item(s) moved the same way`);
  for (const [householdId, recovery] of recovered)
    report(`Household ${householdId}: see its freezer "Recovered items" (${recovery.freezerId})`);
}

export async function up(knex: Knex, report: (message: string) => void = console.warn): Promise<void> {
  await repairCrossedItems(knex, report);
  await runStatements(knex, [
    `ALTER TABLE freezers ADD CONSTRAINT freezers_household_id_id_key UNIQUE (household_id, id)`,
    `ALTER TABLE compartments ADD CONSTRAINT compartments_freezer_id_id_key UNIQUE (freezer_id, id)`,
    `ALTER TABLE freezer_items DROP CONSTRAINT IF EXISTS freezer_items_freezer_id_fkey`,
    `ALTER TABLE freezer_items DROP CONSTRAINT IF EXISTS freezer_items_compartment_id_fkey`,
    // NO ACTION, as before: a household's delete still removes its items and freezers in one
    // statement (checked at its end), and a freezer or compartment holding items is refused.
    `ALTER TABLE freezer_items ADD CONSTRAINT freezer_items_freezer_of_household_fkey
     FOREIGN KEY (household_id, freezer_id) REFERENCES freezers (household_id, id)`,
    `ALTER TABLE freezer_items ADD CONSTRAINT freezer_items_compartment_of_freezer_fkey
     FOREIGN KEY (freezer_id, compartment_id) REFERENCES compartments (freezer_id, id)`,
  ]);
}

export async function down(knex: Knex): Promise<void> {
  await runStatements(knex, [
    `ALTER TABLE freezer_items DROP CONSTRAINT freezer_items_compartment_of_freezer_fkey`,
    `ALTER TABLE freezer_items DROP CONSTRAINT freezer_items_freezer_of_household_fkey`,
    `ALTER TABLE freezer_items ADD CONSTRAINT freezer_items_freezer_id_fkey FOREIGN KEY (freezer_id) REFERENCES freezers (id)`,
    `ALTER TABLE freezer_items ADD CONSTRAINT freezer_items_compartment_id_fkey
     FOREIGN KEY (compartment_id) REFERENCES compartments (id)`,
    `ALTER TABLE compartments DROP CONSTRAINT compartments_freezer_id_id_key`,
    `ALTER TABLE freezers DROP CONSTRAINT freezers_household_id_id_key`,
  ]);
}
