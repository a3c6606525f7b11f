import { knexItemsWorld, memoryItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";
import { describeItemsHttpContract } from "./items-http.contract.js";

describeItemsHttpContract("memory", memoryItemsWorld);
describeItemsHttpContract("knex + PGlite", () => knexItemsWorld());
describeItemsHttpContract("knex + acquired PostgreSQL", async () => {
  const server = await acquireDatabase("items HTTP contract");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    close: async () => {
      await world.close();
      await server.release();
    },
  };
});
