import { expect } from "chai";
import { type Database, openDatabase } from "../../../src/adapters/persistence/database.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { migrateToLatest } from "../../../src/adapters/persistence/migrator.js";
import { InvalidItemPlacementError } from "../../../src/domain/inventory/item-errors.js";
import { type ItemWorld, itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { acquireDatabase } from "../../support/test-servers.js";

/**
 * The use cases check an item's freezer and compartment before writing; these tests stand
 * for a freezer, compartment or household deleted (while still empty) between that check
 * and the write, which the foreign keys catch. The caller must get the placement error
 * (400 with details), not a 500, and nothing may change.
 */
function describePlacementRace(label: string, open: () => Promise<{ database: Database; release(): Promise<void> }>) {
  describe(`item writes racing a placement delete (${label})`, () => {
    let database: Database;
    let release: () => Promise<void>;
    let world: ItemWorld;
    let items: KnexItemRepository;

    before(async function () {
      this.timeout(60_000);
      ({ database, release } = await open());
      await migrateToLatest(database.knex);
    });
    after(async () => {
      await release?.();
    });
    beforeEach(async () => {
      world = makeWorld();
      await seedWorld(database.knex, world);
      items = new KnexItemRepository(database.knex);
    });

    const placementErrorOf = async (write: Promise<unknown>) => {
      const error = await write.then(
        () => expect.fail("the write should have been refused"),
        (caught: unknown) => caught,
      );
      expect(error).to.be.instanceOf(InvalidItemPlacementError);
      return (error as InvalidItemPlacementError).details;
    };

    it("refuses a new item whose compartment just went", async () => {
      await database.knex("compartments").where({ id: world.home.compartmentIds[1] }).delete();
      const details = await placementErrorOf(
        items.create(itemIn(world, { compartmentId: world.home.compartmentIds[1] })),
      );
      expect(details?.[0]?.path).to.equal("compartmentId");
      expect((await items.list({ householdId: world.home.householdId, page: 1, limit: 20 })).total).to.equal(0);
    });

    it("refuses a new item whose freezer just went", async () => {
      await database.knex("compartments").where({ freezer_id: world.home.otherFreezerId }).delete();
      await database.knex("freezers").where({ id: world.home.otherFreezerId }).delete();
      const details = await placementErrorOf(
        items.create(
          itemIn(world, { freezerId: world.home.otherFreezerId, compartmentId: world.home.compartmentIds[0] }),
        ),
      );
      expect(details?.[0]?.path).to.equal("freezerId");
    });

    it("refuses moving an item into a compartment that just went, leaving it where it was", async () => {
      const item = itemIn(world);
      await items.create(item);
      await database.knex("compartments").where({ id: world.home.compartmentIds[1] }).delete();
      await placementErrorOf(
        items.update(world.home.householdId, item.id, (current) => ({
          item: { ...current, compartmentId: world.home.compartmentIds[1] },
          changes: [],
        })),
      );
      expect((await items.findById(world.home.householdId, item.id))?.compartmentId).to.equal(
        world.home.compartmentIds[0],
      );
    });
  });
}

describePlacementRace("PGlite", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  return { database, release: () => database.close() };
});

describePlacementRace("PostgreSQL", async () => {
  const server = await acquireDatabase("item placement race");
  const database = await openDatabase({ databaseUrl: server.url, dataDir: ":memory:" });
  return {
    database,
    release: async () => {
      await database.close();
      await server.release();
    },
  };
});
