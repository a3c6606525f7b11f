import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { Knex } from "knex";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { KnexFreezerRepository } from "../../../src/adapters/persistence/knex-freezer-repository.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { down as dropKeys, up as addKeys } from "../../../migrations/20261125100000_items_in_own_household.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

async function refused(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return String((error as Error).message);
  }
  throw new Error("expected the database to refuse the change");
}

function describeMigration(label: string, open: () => Promise<{ database: Database; release(): Promise<void> }>) {
  describe(`items stay in their household's freezers (${label})`, () => {
    let database: Database;
    let release: () => Promise<void>;
    let knex: Knex;

    before(async function () {
      this.timeout(60_000);
      ({ database, release } = await open());
      knex = database.knex;
      await migrateToLatest(knex);
    });
    after(async () => {
      await release?.();
    });

    const now = new Date();

    async function household() {
      const owner = createId();
      const hid = createId();
      await knex("users").insert({
        id: owner,
        email: `${owner}@example.com`,
        name: owner,
        password_hash: "x",
        created_at: now,
        updated_at: now,
      });
      await knex.transaction(async (trx) => {
        await trx("households").insert({ id: hid, name: "H", owner_id: owner, created_at: now, updated_at: now });
        await trx("memberships").insert({
          id: createId(),
          household_id: hid,
          user_id: owner,
          role: "OWNER",
          joined_at: now,
        });
      });
      const freezer = async (name: string, position: number) => {
        const id = createId();
        await knex("freezers").insert({
          id,
          household_id: hid,
          name,
          description: null,
          position,
          created_at: now,
          updated_at: now,
        });
        const compartment = createId();
        await knex("compartments").insert({
          id: compartment,
          freezer_id: id,
          name: "Top",
          position: 0,
          created_at: now,
        });
        return { id, compartment };
      };
      return { hid, owner, chest: await freezer("Chest", 0), upright: await freezer("Upright", 1) };
    }

    type Household = Awaited<ReturnType<typeof household>>;

    const item = (owner: Household, freezerId: string, compartmentId: string) => ({
      id: createId(),
      household_id: owner.hid,
      freezer_id: freezerId,
      compartment_id: compartmentId,
      name: "Peas",
      quantity: 1,
      created_at: now,
      updated_at: now,
      created_by: owner.owner,
      updated_by: owner.owner,
    });

    it("refuses an item in another household's freezer, or in a compartment of another freezer", async () => {
      const [mine, theirs] = [await household(), await household()];
      expect(
        await refused(knex("freezer_items").insert(item(mine, theirs.chest.id, theirs.chest.compartment))),
      ).to.match(/freezer_items_freezer_of_household_fkey/);
      expect(await refused(knex("freezer_items").insert(item(mine, mine.chest.id, mine.upright.compartment)))).to.match(
        /freezer_items_compartment_of_freezer_fkey/,
      );
      const kept = item(mine, mine.chest.id, mine.chest.compartment);
      await knex("freezer_items").insert(kept);
      expect(
        await refused(
          knex("freezer_items").where({ id: kept.id }).update({ compartment_id: mine.upright.compartment }),
        ),
      ).to.match(/freezer_items_compartment_of_freezer_fkey/);
    });

    it("moves items an import crossed back into their household, reports each, and lets the other household delete its freezer", async () => {
      await dropKeys(knex);
      const [mine, theirs] = [await household(), await household()];
      // What an import could write before: another household's freezer and compartment...
      const stolen = item(mine, theirs.chest.id, theirs.chest.compartment);
      // ...an own compartment, but of another of its freezers...
      const misfiled = item(mine, mine.chest.id, mine.upright.compartment);
      // ...and an own freezer with a compartment of another household.
      const halfway = item(mine, mine.chest.id, theirs.upright.compartment);
      const fine = item(mine, mine.chest.id, mine.chest.compartment);
      await knex("freezer_items").insert([stolen, misfiled, halfway, fine]);

      // Through the migrator, as a start runs it: its report function hears the repair.
      await knex("knex_migrations").where({ name: "20261125100000_items_in_own_household" }).delete();
      const reported: string[] = [];
      await migrateToLatest(knex, undefined, undefined, (message) => reported.push(message));

      const placed = async (id: string) =>
        knex("freezer_items").where({ id }).first("household_id", "freezer_id", "compartment_id");
      expect(await placed(misfiled.id)).to.deep.equal({
        household_id: mine.hid,
        freezer_id: mine.upright.id,
        compartment_id: mine.upright.compartment,
      });
      expect(await placed(fine.id)).to.deep.equal({
        household_id: mine.hid,
        freezer_id: mine.chest.id,
        compartment_id: mine.chest.compartment,
      });
      const recovered = await knex("freezers").where({ household_id: mine.hid, name: "Recovered items" });
      expect(recovered).to.have.length(1);
      expect(recovered[0].position).to.equal(2);
      const recoveredCompartment = await knex("compartments").where({ freezer_id: recovered[0].id }).first();
      expect(recoveredCompartment.name).to.equal("Recovered");
      for (const id of [stolen.id, halfway.id])
        expect(await placed(id)).to.deep.equal({
          household_id: mine.hid,
          freezer_id: recovered[0].id,
          compartment_id: recoveredCompartment.id,
        });

      expect(reported[0]).to.match(
        /^Found 3 item\(s\) stored in a freezer or compartment that is not their household's/,
      );
      for (const crossed of [stolen, misfiled, halfway])
        expect(
          reported.some((line) => line.startsWith(`Item ${crossed.id} of household ${mine.hid} was in freezer`)),
        ).to.equal(true, `${crossed.id} reported`);
      expect(reported.some((line) => line.includes(fine.id))).to.equal(false);
      expect(reported.at(-1)).to.equal(`Household ${mine.hid}: see its freezer "Recovered items" (${recovered[0].id})`);

      // The other household's freezers are its own again: emptied, they delete as usual, and so does it.
      const freezers = new KnexFreezerRepository(knex);
      expect(await freezers.deleteCompartment(theirs.chest.id, theirs.chest.compartment)).to.equal("deleted");
      expect(await freezers.deleteFreezer(theirs.hid, theirs.chest.id)).to.equal("deleted");
      await knex.transaction(async (trx) => {
        await trx("memberships").where({ household_id: theirs.hid }).delete();
        await trx("households").where({ id: theirs.hid }).delete();
      });
      expect(await knex("households").where({ id: theirs.hid }).first()).to.equal(undefined);
      // Nothing crossed any more: running the repair again finds nothing to report.
      await dropKeys(knex);
      const again: string[] = [];
      await addKeys(knex, (message) => again.push(message));
      expect(again).to.deep.equal([]);
    });
  });
}

describeMigration("PGlite", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  return { database, release: () => database.close() };
});

describeMigration("PostgreSQL or its fallback", async () => {
  const server: TestDatabase = await acquireDatabase("items in own household migration");
  const database = await openDatabase({ dataDir: ":memory:", ...(server.url ? { databaseUrl: server.url } : {}) });
  return {
    database,
    release: async () => {
      await database.close();
      await server.release();
    },
  };
});
