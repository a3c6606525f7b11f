/**
 * Writes into a household that was deleted after the use case checked the caller's membership
 * (or found the freezer): the foreign key refuses the row, and the caller gets the 403 or 404
 * the same request gets after the delete, never a server error. A household delete that races
 * a member's write is tried again and deletes the new row with the rest.
 */
import { expect } from "chai";
import { KnexCategoryRepository } from "../../../src/adapters/persistence/knex-category-repository.js";
import { KnexFreezerRepository } from "../../../src/adapters/persistence/knex-freezer-repository.js";
import { KnexHouseholdRepository } from "../../../src/adapters/persistence/knex-household-repository.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { KnexInviteRepository } from "../../../src/adapters/persistence/knex-invite-repository.js";
import { KnexPushRepository } from "../../../src/adapters/persistence/knex-push-repository.js";
import { KnexReminderRepository } from "../../../src/adapters/persistence/knex-reminder-repository.js";
import type { Database } from "../../../src/adapters/persistence/database.js";
import { FreezerNotFoundError, NotHouseholdMemberError } from "../../../src/domain/inventory/errors.js";
import { itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

function describeVanishedHousehold(name: string, database: () => Database): void {
  describe(name, () => {
    /** A seeded world whose home household is deleted again. */
    const deletedHome = async () => {
      const world = makeWorld();
      await seedWorld(database().knex, world);
      expect(await new KnexHouseholdRepository(database().knex).delete(world.home.householdId)).to.equal(true);
      return world;
    };
    const now = new Date();

    it("refuses a freezer, a category, an invite and reminders with 403, a compartment with 404", async () => {
      const world = await deletedHome();
      const householdId = world.home.householdId;
      const knex = database().knex;
      const attempts: [string, () => Promise<unknown>, new () => Error][] = [
        [
          "freezer",
          () =>
            new KnexFreezerRepository(knex).insertFreezer({
              id: `f-new-${householdId}`,
              householdId,
              name: "Chest",
              description: null,
              position: 0,
              createdAt: now,
              updatedAt: now,
            }),
          NotHouseholdMemberError,
        ],
        [
          "compartment",
          () =>
            new KnexFreezerRepository(knex).insertCompartment({
              id: `c-new-${householdId}`,
              freezerId: world.home.freezerId,
              name: "Drawer",
              position: 0,
              createdAt: now,
            }),
          FreezerNotFoundError,
        ],
        [
          "category",
          () =>
            new KnexCategoryRepository(knex).insert({
              id: `k-new-${householdId}`,
              householdId,
              key: null,
              name: "Soups",
              position: 0,
              createdAt: now,
              updatedAt: now,
            }),
          NotHouseholdMemberError,
        ],
        [
          "invite",
          () =>
            new KnexInviteRepository(knex).insert({
              id: `i-new-${householdId}`,
              householdId,
              code: `code-${householdId}`,
              createdBy: world.users.alice.id,
              expiresAt: new Date(now.getTime() + 86_400_000),
              usedAt: null,
              usedBy: null,
              createdAt: now,
            }),
          NotHouseholdMemberError,
        ],
        [
          "household reminder",
          () =>
            new KnexReminderRepository(knex).save({
              householdId,
              enabled: true,
              daysAhead: 3,
              timeOfDay: "08:00",
              channel: null,
              updatedAt: now,
            }),
          NotHouseholdMemberError,
        ],
        [
          "member reminder",
          () =>
            new KnexPushRepository(knex).saveReminder({
              userId: world.users.alice.id,
              householdId,
              enabled: true,
              daysAhead: 3,
              timeOfDay: "08:00",
              updatedAt: now,
            }),
          NotHouseholdMemberError,
        ],
      ];
      for (const [what, attempt, expected] of attempts) {
        const failure = await attempt().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, what).to.be.instanceOf(expected);
      }
    });

    /**
     * Makes the first statement of `event` on `table` fail with `condition`, once: a sequence
     * counts, since the failed transaction rolls back everything else. Returns the undo.
     */
    const failOnce = async (table: string, event: "INSERT" | "DELETE", condition: string) => {
      const knex = database().knex;
      await knex.raw("CREATE SEQUENCE IF NOT EXISTS hearth_test_fail_once");
      await knex.raw("SELECT setval('hearth_test_fail_once', 1, false)");
      await knex.raw(`CREATE OR REPLACE FUNCTION hearth_test_fail_once() RETURNS trigger AS $$
        BEGIN
          IF nextval('hearth_test_fail_once') = 1 THEN
            RAISE ${condition} USING MESSAGE = 'as if another transaction had come between';
          END IF;
          RETURN NULL;
        END $$ LANGUAGE plpgsql`);
      await knex.raw(
        `CREATE TRIGGER hearth_test_fail_once BEFORE ${event} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION hearth_test_fail_once()`,
      );
      return () => knex.raw(`DROP TRIGGER hearth_test_fail_once ON ${table}`);
    };

    for (const condition of ["foreign_key_violation", "deadlock_detected"]) {
      it(`deletes a household again when its delete fails with ${condition} against a member's write`, async () => {
        const world = makeWorld();
        await seedWorld(database().knex, world);
        const undo = await failOnce("compartments", "DELETE", condition);
        try {
          expect(await new KnexHouseholdRepository(database().knex).delete(world.home.householdId)).to.equal(true);
        } finally {
          await undo();
        }
        const knex = database().knex;
        expect(await knex("households").where({ id: world.home.householdId }).first()).to.equal(undefined);
        expect(await knex("compartments").where({ freezer_id: world.home.freezerId }).first()).to.equal(undefined);
      });
    }

    it("stores an item again when PostgreSQL aborted its insert in a deadlock", async () => {
      const world = makeWorld();
      await seedWorld(database().knex, world);
      const undo = await failOnce("freezer_items", "INSERT", "deadlock_detected");
      let created: Awaited<ReturnType<KnexItemRepository["createForMember"]>>;
      try {
        created = await new KnexItemRepository(database().knex).createForMember(
          world.users.alice.id,
          itemIn(world, { name: "Peas" }),
        );
      } finally {
        await undo();
      }
      expect("created" in created && created.created.name).to.equal("Peas");
    });
  });
}

describe("writes into a household deleted meanwhile (knex)", function () {
  this.timeout(60_000);
  describe("on PGlite", () => {
    const database = useMigratedDatabase("pglite");
    describeVanishedHousehold("knex + PGlite", database);
  });
  describe("on PostgreSQL", () => {
    const database = useMigratedDatabase({ acquired: "writes into a vanished household" });
    describeVanishedHousehold(`knex + ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "acquired database"}`, database);
  });
});
