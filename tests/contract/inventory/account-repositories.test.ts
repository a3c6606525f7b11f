import { useMigratedDatabase } from "../../support/migrated-database.js";
import { createId } from "@paralleldrive/cuid2";
import type { Knex } from "knex";
import { KnexFreezerRepository } from "../../../src/adapters/persistence/knex-freezer-repository.js";
import { KnexHouseholdRepository } from "../../../src/adapters/persistence/knex-household-repository.js";
import { KnexInviteRepository } from "../../../src/adapters/persistence/knex-invite-repository.js";
import { KnexRefreshTokenRepository } from "../../../src/adapters/persistence/knex-refresh-token-repository.js";
import { KnexUserRepository } from "../../../src/adapters/persistence/knex-user-repository.js";
import { MemoryFreezerRepository } from "../../../src/adapters/persistence/memory-freezer-repository.js";
import { MemoryHouseholdRepository } from "../../../src/adapters/persistence/memory-household-repository.js";
import { MemoryInventoryStore } from "../../../src/adapters/persistence/memory-inventory-store.js";
import { MemoryInviteRepository } from "../../../src/adapters/persistence/memory-invite-repository.js";
import { MemoryRefreshTokenRepository } from "../../../src/adapters/persistence/memory-refresh-token-repository.js";
import { MemoryUserRepository } from "../../../src/adapters/persistence/memory-user-repository.js";
import {
  type AccountRepositoriesFixture,
  describeAccountRepositoriesContract,
} from "./account-repositories.contract.js";

describeAccountRepositoriesContract("memory", async () => {
  const store = new MemoryInventoryStore();
  const items: { householdId: string; freezerId: string; compartmentId: string }[] = [];
  store.itemsIn = (where) =>
    items.some(
      (item) =>
        (where.freezerId === undefined || item.freezerId === where.freezerId) &&
        (where.compartmentId === undefined || item.compartmentId === where.compartmentId),
    );
  store.householdCascades.push((householdId) => {
    for (let i = items.length - 1; i >= 0; i--) if (items[i]!.householdId === householdId) items.splice(i, 1);
  });
  return {
    users: new MemoryUserRepository(store),
    refreshTokens: new MemoryRefreshTokenRepository(store),
    households: new MemoryHouseholdRepository(store),
    invites: new MemoryInviteRepository(store),
    freezers: new MemoryFreezerRepository(store),
    storeItem: async (item) => {
      items.push(item);
    },
    countItems: async (householdId) => items.filter((item) => item.householdId === householdId).length,
    dispose: async () => {},
  };
});

function knexFixture(knex: Knex, cleanup: () => Promise<void>): AccountRepositoriesFixture {
  return {
    users: new KnexUserRepository(knex),
    refreshTokens: new KnexRefreshTokenRepository(knex),
    households: new KnexHouseholdRepository(knex),
    invites: new KnexInviteRepository(knex),
    freezers: new KnexFreezerRepository(knex),
    storeItem: async (item) => {
      const now = new Date();
      await knex("freezer_items").insert({
        id: createId(),
        household_id: item.householdId,
        freezer_id: item.freezerId,
        compartment_id: item.compartmentId,
        name: "Peas",
        quantity: 1,
        deleted_at: item.archived ? now : null,
        created_at: now,
        updated_at: now,
        created_by: item.userId,
        updated_by: item.userId,
      });
    },
    countItems: async (householdId) => {
      const row = await knex("freezer_items")
        .where({ household_id: householdId })
        .count<{ count: number }[]>("* as count");
      return Number(row[0]?.count ?? 0);
    },
    dispose: cleanup,
  };
}

/** Empties every inventory table between tests; CASCADE takes tables later migrations hang off these too. */
async function truncate(knex: Knex): Promise<void> {
  await knex.raw(
    "TRUNCATE household_reminders, inventory_outbox, item_change_log, freezer_items, compartments, freezers, invites, memberships, households, refresh_tokens, users CASCADE",
  );
}

describe("knex on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  describeAccountRepositoriesContract("knex/PGlite", async () =>
    knexFixture(database().knex, () => truncate(database().knex)),
  );
});

describe("knex on PostgreSQL", () => {
  const database = useMigratedDatabase({ acquired: "account repositories" });
  describeAccountRepositoriesContract("knex/PostgreSQL", async () =>
    knexFixture(database().knex, () => truncate(database().knex)),
  );
});
