import { KnexBarcodeRepository } from "../../../src/adapters/persistence/knex-barcode-repository.js";
import { MemoryBarcodeRepository } from "../../../src/adapters/persistence/memory-barcode-repository.js";
import { makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";
import { describeBarcodeRepositoryContract } from "./barcode-repository.contract.js";

describeBarcodeRepositoryContract("memory", async () => {
  const repository = new MemoryBarcodeRepository();
  return {
    repository,
    world: makeWorld(),
    deleteHousehold: async (householdId) => repository.deleteHousehold(householdId),
  };
});

for (const kind of ["pglite", "postgres"] as const) {
  describe(`knex on ${kind === "pglite" ? "PGlite" : "PostgreSQL"}`, () => {
    const database = useMigratedDatabase(kind === "pglite" ? "pglite" : { acquired: "barcode repository contract" });
    describeBarcodeRepositoryContract(`knex + ${kind}`, async () => {
      const world = makeWorld();
      await seedWorld(database().knex, world);
      return {
        repository: new KnexBarcodeRepository(database().knex),
        world,
        deleteHousehold: async (householdId) => {
          // Items first: their history and placements hold on to the household.
          await database().knex("freezer_items").where({ household_id: householdId }).delete();
          await database().knex("households").where({ id: householdId }).delete();
        },
      };
    });
  });
}
