import { useMigratedDatabase } from "../../support/migrated-database.js";
import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import { KnexFreezerRepository } from "../../../src/adapters/persistence/knex-freezer-repository.js";
import { KnexCategoryRepository } from "../../../src/adapters/persistence/knex-category-repository.js";
import { KnexHouseholdRepository } from "../../../src/adapters/persistence/knex-household-repository.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { HouseholdAccess } from "../../../src/application/inventory/household-access.js";
import { placementsFromFreezers } from "../../../src/application/inventory/items/item-placement.js";
import { createItemUseCases } from "../../../src/application/inventory/items/item-use-cases.js";
import type { ChangeLogEntryView } from "../../../src/domain/inventory/change-log-entry.js";
import type { ItemPatch } from "../../../src/domain/inventory/freezer-item.js";
import { systemClock } from "../../../src/ports/clock.js";
import { makeWorld, seedWorld } from "../../support/item-fixtures.js";

describe("item updates under concurrency", () => {
  const migrated = useMigratedDatabase({ acquired: "item concurrency" }, { poolMax: 20 });

  it("20 parallel PATCHes of one item leave a chained change log", async () => {
    const database = migrated();
    const world = makeWorld();
    await seedWorld(database.knex, world);
    const items = new KnexItemRepository(database.knex);
    const placements = placementsFromFreezers(
      new KnexFreezerRepository(database.knex),
      new KnexCategoryRepository(database.knex),
    );
    const ids = { next: () => createId() };
    const access = new HouseholdAccess(new KnexHouseholdRepository(database.knex));
    const {
      createItem,
      updateItem,
      getItemHistory: history,
    } = createItemUseCases({ items, placements, ids, clock: systemClock }, access);
    const item = await createItem.execute({
      householdId: world.home.householdId,
      userId: world.users.alice.id,
      name: "Soup 0",
      quantity: 1,
      freezerId: world.home.freezerId,
      compartmentId: world.home.compartmentIds[0],
    });

    const patches: ItemPatch[] = Array.from({ length: 20 }, (_, index) => ({
      quantity: index + 2,
      name: `Soup ${index + 1}`,
      ...(index % 3 === 0 ? { compartmentId: world.home.compartmentIds[index % 2] } : {}),
    }));
    await Promise.all(
      patches.map((patch, index) =>
        updateItem.execute({
          householdId: world.home.householdId,
          itemId: item.id,
          userId: index % 2 ? world.users.alice.id : world.users.bob.id,
          patch,
        }),
      ),
    );

    const entries = await history.execute({
      householdId: world.home.householdId,
      itemId: item.id,
      userId: world.users.alice.id,
    });
    const final = await items.findById(world.home.householdId, item.id);
    expect(entries.filter((entry) => entry.fieldName === "quantity")).to.have.length(20);
    expect(entries.filter((entry) => entry.fieldName === "name")).to.have.length(20);

    const chains = new Map<string, ChangeLogEntryView[]>();
    for (const entry of [...entries].reverse()) {
      chains.set(entry.fieldName, [...(chains.get(entry.fieldName) ?? []), entry]);
    }
    const initial: Record<string, string> = {
      quantity: "1",
      name: "Soup 0",
      compartmentId: world.home.compartmentIds[0],
    };
    for (const [field, chain] of chains) {
      expect(chain[0]!.oldValue, `${field} starts from the created value`).to.equal(initial[field]);
      for (let index = 1; index < chain.length; index++) {
        expect(chain[index]!.oldValue, `${field} entry ${index}`).to.equal(chain[index - 1]!.newValue);
        expect(chain[index]!.changedAt.getTime()).to.be.greaterThan(chain[index - 1]!.changedAt.getTime());
      }
    }
    expect(String(final?.quantity)).to.equal(chains.get("quantity")?.at(-1)?.newValue);
    expect(final?.name).to.equal(chains.get("name")?.at(-1)?.newValue);
    // Entries of one PATCH share their time: 20 distinct times, one per PATCH.
    expect(new Set(entries.map((entry) => entry.changedAt.getTime())).size).to.equal(20);
  });
});
