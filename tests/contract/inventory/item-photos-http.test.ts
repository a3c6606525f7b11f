import { knexItemsWorld, memoryItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";
import { describeItemPhotosHttpContract } from "./item-photos-http.contract.js";

describeItemPhotosHttpContract("memory", memoryItemsWorld);
describeItemPhotosHttpContract("knex + PGlite", () => knexItemsWorld());
describeItemPhotosHttpContract("knex + acquired PostgreSQL", async () => {
  const server = await acquireDatabase("item photos HTTP contract");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    close: async () => {
      await world.close();
      await server.release();
    },
  };
});
