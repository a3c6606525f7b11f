import { expect } from "chai";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import type { FreezerItem } from "../../../src/domain/inventory/freezer-item.js";
import type { ItemUpdate } from "../../../src/domain/inventory/freezer-item.js";
import type { InventoryEvent } from "../../../src/domain/inventory/inventory-event.js";
import { itemIn, makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

/**
 * An update is computed from the row as read and written only while the row is unchanged;
 * otherwise it is computed again under the item's lock. PGlite runs one statement at a
 * time in the order they are issued, so a write issued from inside the updater lands
 * between the read and the optimistic write, every time.
 */
describe("item update: optimistic write, locked retry (knex on PGlite)", () => {
  const database = useMigratedDatabase("pglite");

  /** A seeded world with one item, "Peas", in the home household. */
  const seeded = async () => {
    const world = makeWorld();
    await seedWorld(database().knex, world);
    const items = new KnexItemRepository(database().knex);
    const item = itemIn(world, { name: "Peas" });
    await items.create(item);
    return { world, items, item };
  };

  const rename =
    (name: string, calls: FreezerItem[]) =>
    (current: FreezerItem): ItemUpdate => {
      calls.push(current);
      const at = new Date(current.updatedAt.getTime() + 1000);
      return {
        item: { ...current, name, updatedAt: at },
        changes: [
          {
            id: `change-${calls.length}-${current.id}`,
            itemId: current.id,
            fieldName: "name",
            oldValue: current.name,
            newValue: name,
            changedAt: at,
            changedById: current.updatedById,
          },
        ],
      };
    };

  it("writes an uncontended change in two statements, with its change log", async () => {
    const { world, items, item } = await seeded();
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    database().knex.on("query", record);
    const calls: FreezerItem[] = [];
    try {
      const read = await items.updateForMember(
        { userId: world.users.bob.id, householdId: world.home.householdId, itemId: item.id },
        rename("Garden peas", calls),
      );
      expect(read?.found?.name).to.equal("Garden peas");
    } finally {
      database().knex.off("query", record);
    }
    expect(statements).to.have.length(2);
    expect(calls).to.have.length(1);
    const history = await items.history(item.id);
    expect(history.map((entry) => [entry.oldValue, entry.newValue])).to.deep.equal([["Peas", "Garden peas"]]);
  });

  it("computes the change again from the newer row when the item changed after it was read", async () => {
    const { world, items, item } = await seeded();
    const calls: FreezerItem[] = [];
    const inner = rename("Garden peas", calls);
    const updated = await items.update(world.home.householdId, item.id, (current) => {
      if (calls.length === 0) {
        // Another writer, between this read and this write.
        // (knex runs a query when it is awaited or then-ed, not when it is built.)
        void database()
          .knex.raw("UPDATE freezer_items SET name = 'Frozen peas' WHERE id = ?", [item.id])
          .then(() => undefined);
      }
      return inner(current);
    });
    expect(calls.map((current) => current.name)).to.deep.equal(["Peas", "Frozen peas"]);
    expect(updated?.name).to.equal("Garden peas");
    // One entry, and its old value is what the other writer left, not what was read first.
    const history = await items.history(item.id);
    expect(history.map((entry) => [entry.oldValue, entry.newValue])).to.deep.equal([["Frozen peas", "Garden peas"]]);
  });

  it("retries under the lock with one read and one write, and logs and announces the change once", async () => {
    const { world, items, item } = await seeded();
    const calls: FreezerItem[] = [];
    const inner = rename("Garden peas", calls);
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql.trim().split(/\s+/)[0]!.toUpperCase());
    database().knex.on("query", record);
    try {
      const read = await items.updateForMember(
        { userId: world.users.bob.id, householdId: world.home.householdId, itemId: item.id },
        (current) => {
          if (calls.length === 0) {
            void database()
              .knex.raw("UPDATE freezer_items SET name = 'Frozen peas' WHERE id = ?", [item.id])
              .then(() => undefined);
          }
          // Any event type serves: the outbox stores what the updater announces.
          const event: InventoryEvent = {
            id: `event-${calls.length + 1}`,
            type: "item.deleted",
            householdId: world.home.householdId,
            occurredAt: new Date(),
            actor: null,
            data: { itemId: item.id, name: current.name },
          };
          return { ...inner(current), events: [event] };
        },
      );
      expect(read?.found?.name).to.equal("Garden peas");
      expect(read?.found?.updatedBy.email).to.equal(world.users.alice.email);
    } finally {
      database().knex.off("query", record);
    }
    // The optimistic read, the other writer, the refused write; then the locked retry.
    expect(statements).to.deep.equal(["SELECT", "UPDATE", "WITH", "BEGIN;", "WITH", "WITH", "COMMIT;"]);
    const history = await items.history(item.id);
    expect(history.map((entry) => [entry.oldValue, entry.newValue])).to.deep.equal([["Frozen peas", "Garden peas"]]);
    const outbox = await database().knex("inventory_outbox").where({ household_id: world.home.householdId });
    expect(outbox.map((row: { id: string }) => row.id)).to.deep.equal(["event-2"]);
  });

  it("writes nothing for a non-member or a missing item, and never calls the updater", async () => {
    const { world, items, item } = await seeded();
    const calls: FreezerItem[] = [];
    expect(
      await items.updateForMember(
        { userId: "nobody", householdId: world.home.householdId, itemId: item.id },
        rename("X", calls),
      ),
    ).to.equal(undefined);
    expect(
      await items.updateForMember(
        { userId: world.users.alice.id, householdId: world.home.householdId, itemId: "missing" },
        rename("X", calls),
      ),
    ).to.deep.equal({ found: undefined });
    expect(calls).to.have.length(0);
    expect((await items.findById(world.home.householdId, item.id))?.name).to.equal("Peas");
  });
});
