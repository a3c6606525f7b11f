import { knexItemsWorld, memoryItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";
import { describeUnitsCategoriesContract } from "./units-categories-http.contract.js";

describeUnitsCategoriesContract("memory", memoryItemsWorld);
describeUnitsCategoriesContract("knex + PGlite", () => knexItemsWorld());
describeUnitsCategoriesContract("knex + acquired PostgreSQL", async () => {
  const server = await acquireDatabase("units and categories HTTP contract");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    close: async () => {
      await world.close();
      await server.release();
    },
  };
});
