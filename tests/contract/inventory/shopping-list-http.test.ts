import { knexItemsWorld, memoryItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";
import { describeShoppingListHttpContract } from "./shopping-list-http.contract.js";

describeShoppingListHttpContract("memory", memoryItemsWorld);
describeShoppingListHttpContract("knex + PGlite", () => knexItemsWorld());
describeShoppingListHttpContract("knex + acquired PostgreSQL", async () => {
  const server = await acquireDatabase("shopping list HTTP contract");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    close: async () => {
      await world.close();
      await server.release();
    },
  };
});
