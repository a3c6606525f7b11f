import type { Knex } from "knex";
import { knexItemsWorld, memoryItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";
import { describeHouseholdImportContract, type ImportGate } from "./household-import.contract.js";

/** Locks the households' rows from a connection of its own until released (see ImportGate). */
async function holdHouseholds(knex: Knex, householdIds: string[]): Promise<ImportGate> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const holding = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const transaction = knex.transaction(async (trx) => {
    await trx("households").whereIn("id", householdIds).forUpdate().select("id");
    locked();
    await released;
  });
  await holding;
  return {
    async waiting(count) {
      // Polls the server's own view of who waits on a lock: the event itself, not a guessed delay.
      for (;;) {
        const result = await knex.raw<{ rows: { waiting: string }[] }>(
          `SELECT count(*) AS waiting FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        if (Number(result.rows[0]?.waiting) >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async release() {
      release();
      await transaction;
    },
  };
}

describeHouseholdImportContract("memory", memoryItemsWorld);
describeHouseholdImportContract("knex + PGlite", () => knexItemsWorld());
describeHouseholdImportContract("knex + acquired PostgreSQL", async () => {
  const server = await acquireDatabase("household import contract");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    // With a real server, parallel imports are made to meet at the write every time.
    ...(server.kind === "postgres" ? { hold: (ids: string[]) => holdHouseholds(world.database.knex, ids) } : {}),
    close: async () => {
      await world.close();
      await server.release();
    },
  };
});
