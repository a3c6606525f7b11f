import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { Knex } from "knex";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { down as dropPosition, up as addPosition } from "../../../migrations/20261124160000_freezer_position.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

function describeMigration(label: string, open: () => Promise<{ database: Database; release(): Promise<void> }>) {
  describe(`freezer positions migration (${label})`, () => {
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

    async function household(): Promise<string> {
      const owner = createId();
      const hid = createId();
      const now = new Date();
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
      return hid;
    }

    it("numbers existing freezers from 0 by creation time, per household", async () => {
      await dropPosition(knex);
      const [first, second] = [await household(), await household()];
      const t0 = Date.UTC(2026, 0, 1);
      const freezer = async (hid: string, name: string, minutes: number) => {
        const at = new Date(t0 + minutes * 60_000);
        await knex("freezers").insert({
          id: createId(),
          household_id: hid,
          name,
          description: null,
          created_at: at,
          updated_at: at,
        });
      };
      await freezer(first, "Garage", 5);
      await freezer(first, "Chest", 1);
      await freezer(second, "Theirs", 3);
      await freezer(first, "Upright", 2);
      await addPosition(knex);
      const rows = await knex("freezers")
        .whereIn("household_id", [first, second])
        .orderBy(["household_id", "position"])
        .select("household_id", "name", "position");
      const of = (hid: string) => rows.filter((row) => row.household_id === hid).map((row) => [row.name, row.position]);
      expect(of(first)).to.deep.equal([
        ["Chest", 0],
        ["Upright", 1],
        ["Garage", 2],
      ]);
      expect(of(second)).to.deep.equal([["Theirs", 0]]);
      // New rows written by older code (no position) get the default.
      await freezer(second, "Later", 4);
      expect(await knex("freezers").where({ household_id: second, name: "Later" }).first("position")).to.deep.equal({
        position: 0,
      });
    });
  });
}

describeMigration("PGlite", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  return { database, release: () => database.close() };
});

describeMigration("PostgreSQL or its fallback", async () => {
  const server: TestDatabase = await acquireDatabase("freezer position migration");
  const database = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
  return {
    database,
    release: async () => {
      await database.close();
      await server.release();
    },
  };
});
