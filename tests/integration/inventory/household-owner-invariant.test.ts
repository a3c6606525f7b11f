import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import type { Knex } from "knex";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import {
  down as dropInvariant,
  up as addInvariant,
} from "../../../migrations/20261124000005_household_owner_invariant.js";
import { acquireDatabase, type TestDatabase } from "../../support/test-servers.js";

async function rejects(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    return String((error as Error).message);
  }
  throw new Error("expected the database to refuse the change");
}

function describeInvariant(label: string, open: () => Promise<{ database: Database; release(): Promise<void> }>) {
  describe(`the database keeps one owner per household (${label})`, () => {
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

    async function user(): Promise<string> {
      const id = createId();
      const now = new Date();
      await knex("users").insert({
        id,
        email: `${id}@example.com`,
        name: id,
        password_hash: "x",
        created_at: now,
        updated_at: now,
      });
      return id;
    }

    async function household(): Promise<{ hid: string; owner: string; member: string }> {
      const [owner, member] = [await user(), await user()];
      const hid = createId();
      const now = new Date();
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
      await knex("memberships").insert({
        id: createId(),
        household_id: hid,
        user_id: member,
        role: "MEMBER",
        joined_at: new Date(now.getTime() + 1000),
      });
      return { hid, owner, member };
    }

    it("refuses a second OWNER, a lone owner_id change, and removing the owner's membership", async () => {
      const { hid, owner, member } = await household();
      expect(
        await rejects(knex("memberships").where({ household_id: hid, user_id: member }).update({ role: "OWNER" })),
      ).to.match(/unique|memberships_one_owner/i);
      expect(await rejects(knex("households").where({ id: hid }).update({ owner_id: member }))).to.match(
        /exactly one OWNER/,
      );
      expect(await rejects(knex("memberships").where({ household_id: hid, user_id: owner }).delete())).to.match(
        /exactly one OWNER/,
      );
      expect(
        await rejects(knex("memberships").where({ household_id: hid, user_id: owner }).update({ role: "MEMBER" })),
      ).to.match(/exactly one OWNER/);
      const owners = await knex("memberships").where({ household_id: hid, role: "OWNER" }).select("user_id");
      expect(owners).to.deep.equal([{ user_id: owner }]);
    });

    it("allows a transfer done in order, and deleting the household", async () => {
      const { hid, owner, member } = await household();
      await knex.transaction(async (trx) => {
        await trx("memberships").where({ household_id: hid, user_id: owner }).update({ role: "MEMBER" });
        await trx("memberships").where({ household_id: hid, user_id: member }).update({ role: "OWNER" });
        await trx("households").where({ id: hid }).update({ owner_id: member });
      });
      await knex.transaction(async (trx) => {
        await trx("memberships").where({ household_id: hid }).delete();
        await trx("households").where({ id: hid }).delete();
      });
      expect(await knex("households").where({ id: hid }).first()).to.equal(undefined);
    });

    it("repairs what earlier races left behind when the migration runs", async () => {
      await dropInvariant(knex);
      const broken = await household();
      const ownerless = await household();
      // A transfer racing an account deletion: owner_id names a user who is no longer a member.
      await knex("memberships").where({ household_id: broken.hid, user_id: broken.owner }).update({ role: "MEMBER" });
      const gone = await user();
      await knex("households").where({ id: broken.hid }).update({ owner_id: gone });
      // And one whose only membership went away.
      await knex("memberships").where({ household_id: ownerless.hid }).delete();
      await addInvariant(knex);
      const repaired = await knex("households").where({ id: broken.hid }).first("owner_id");
      expect(repaired.owner_id).to.equal(broken.owner);
      const owners = await knex("memberships").where({ household_id: broken.hid, role: "OWNER" }).select("user_id");
      expect(owners).to.deep.equal([{ user_id: broken.owner }]);
      const restored = await knex("memberships").where({ household_id: ownerless.hid }).select("user_id", "role");
      expect(restored).to.deep.equal([{ user_id: ownerless.owner, role: "OWNER" }]);
    });
  });
}

describeInvariant("PGlite", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  return { database, release: () => database.close() };
});

describeInvariant("PostgreSQL or its fallback", async () => {
  const server: TestDatabase = await acquireDatabase("household owner invariant");
  const database = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
  return {
    database,
    release: async () => {
      await database.close();
      await server.release();
    },
  };
});
