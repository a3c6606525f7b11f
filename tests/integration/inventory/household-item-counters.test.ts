import { expect } from "chai";
import type { Knex } from "knex";
import { down, up } from "../../../migrations/20261125130000_household_item_counters.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

/** A household's counts and revision, summed over its counter shards. */
async function counters(knex: Knex, householdId: string) {
  const result = await knex.raw<{ rows: { rows: string; active: string; archived: string; revision: string }[] }>(
    `SELECT count(*) AS rows, COALESCE(sum(active), 0) AS active, COALESCE(sum(archived), 0) AS archived,
            COALESCE(sum(revision), 0) AS revision
       FROM household_item_counters WHERE household_id = ?`,
    [householdId],
  );
  const row = result.rows[0]!;
  return {
    rows: Number(row.rows),
    active: Number(row.active),
    archived: Number(row.archived),
    revision: Number(row.revision),
  };
}

for (const source of ["pglite", { acquired: "household item counters" }] as const) {
  describe(`household item counters (${source === "pglite" ? "PGlite" : "the test database"})`, () => {
    // 16 connections on PostgreSQL, so the concurrent writes below really run in parallel.
    const database = useMigratedDatabase(source, { poolMax: 16 });

    it("backfills the counts and carries the list revision over", async () => {
      const knex = database().knex;
      await down(knex);
      try {
        const world = makeWorld();
        await seedWorld(knex, world);
        const items = new KnexItemRepository(knex);
        await items.insertMany([
          itemIn(world),
          itemIn(world),
          itemIn(world, { deletedAt: new Date() }),
          itemIn(world, {
            householdId: world.away.householdId,
            freezerId: world.away.freezerId,
            compartmentId: world.away.compartmentId,
          }),
        ]);
        const before = await knex.raw<{ rows: { revision: string }[] }>(
          "SELECT revision FROM household_item_revisions WHERE household_id = ?",
          [world.home.householdId],
        );
        await up(knex);
        expect(await counters(knex, world.home.householdId)).to.include({
          active: 2,
          archived: 1,
          revision: Number(before.rows[0]!.revision),
        });
        expect(await counters(knex, world.away.householdId)).to.include({ active: 1, archived: 0 });
      } finally {
        // Leaves the schema as migrated whatever happened above.
        const exists = await knex.schema.hasTable("household_item_counters");
        if (!exists) await up(knex);
      }
    });

    it("stays exact under concurrent creates, archives and deletes in one household", async () => {
      const knex = database().knex;
      const world = makeWorld();
      await seedWorld(knex, world);
      const items = new KnexItemRepository(knex);
      const start = await counters(knex, world.home.householdId);
      const created = await Promise.all(
        Array.from({ length: 32 }, () => items.createForMember(world.users.alice.id, itemIn(world))),
      );
      const ids = created.map((answer) => ("created" in answer ? answer.created.id : ""));
      expect(ids.every(Boolean)).to.equal(true);
      await Promise.all([
        ...ids.slice(0, 8).map((id) =>
          items.update(world.home.householdId, id, (current) => ({
            item: { ...current, deletedAt: new Date() },
            changes: [],
          })),
        ),
        ...ids.slice(8, 12).map((id) => items.deletePermanently(world.home.householdId, id, () => {})),
      ]);
      const after = await counters(knex, world.home.householdId);
      expect(after).to.include({ active: start.active + 20, archived: start.archived + 8 });
      // Every write statement moved the revision once: 32 creates, 8 archives, 4 deletes.
      expect(after.revision - start.revision).to.equal(44);
      const listed = await items.list({ householdId: world.home.householdId, page: 1, limit: 5 });
      expect(listed.total).to.equal(start.active + 20);
    });

    it("removes a deleted household's counters, cascaded items and all", async () => {
      const knex = database().knex;
      const world = makeWorld();
      await seedWorld(knex, world);
      const items = new KnexItemRepository(knex);
      await items.insertMany([itemIn(world), itemIn(world, { deletedAt: new Date() })]);
      await knex("households").where({ id: world.home.householdId }).delete();
      expect(await counters(knex, world.home.householdId)).to.include({ rows: 0 });
      expect((await counters(knex, world.away.householdId)).rows).to.be.at.least(1);
    });
  });
}
