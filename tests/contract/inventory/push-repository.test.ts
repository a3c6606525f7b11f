import type { Knex } from "knex";
import { KnexHouseholdRepository } from "../../../src/adapters/persistence/knex-household-repository.js";
import { KnexPushRepository } from "../../../src/adapters/persistence/knex-push-repository.js";
import { KnexUserRepository } from "../../../src/adapters/persistence/knex-user-repository.js";
import { MemoryHouseholdRepository } from "../../../src/adapters/persistence/memory-household-repository.js";
import { MemoryInventoryStore } from "../../../src/adapters/persistence/memory-inventory-store.js";
import { MemoryPushRepository } from "../../../src/adapters/persistence/memory-push-repository.js";
import { MemoryUserRepository } from "../../../src/adapters/persistence/memory-user-repository.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";
import { describePushRepositoryContract, type PushRepositoryFixture } from "./push-repository.contract.js";

describePushRepositoryContract("memory", async () => {
  const store = new MemoryInventoryStore();
  const push = new MemoryPushRepository(store);
  store.householdCascades.push((householdId) => push.deleteHousehold(householdId));
  store.userCascades.push((userId) => push.deleteUser(userId));
  return {
    push,
    users: new MemoryUserRepository(store),
    households: new MemoryHouseholdRepository(store),
    dispose: async () => {},
  };
});

function knexFixture(knex: Knex): PushRepositoryFixture {
  return {
    push: new KnexPushRepository(knex),
    users: new KnexUserRepository(knex),
    households: new KnexHouseholdRepository(knex),
    dispose: async () => {
      await knex.raw(
        "TRUNCATE member_reminders, push_subscriptions, memberships, households, refresh_tokens, users CASCADE",
      );
    },
  };
}

describe("knex on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  describePushRepositoryContract("knex/PGlite", async () => knexFixture(database().knex));
});

describe("knex on PostgreSQL", () => {
  const database = useMigratedDatabase({ acquired: "push repository" });
  describePushRepositoryContract("knex/PostgreSQL", async () => knexFixture(database().knex));
});
