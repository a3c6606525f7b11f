import { expect } from "chai";
import request from "supertest";
import { KnexShoppingListRepository } from "../../../src/adapters/persistence/knex-shopping-list-repository.js";
import type { FreezerItem } from "../../../src/domain/inventory/freezer-item.js";
import { InvalidItemPlacementError } from "../../../src/domain/inventory/item-errors.js";
import type { ShoppingListEntry } from "../../../src/domain/inventory/shopping-list.js";
import { type ItemsHttpWorld, knexItemsWorld } from "../../support/items-http.js";
import { acquireDatabase } from "../../support/test-servers.js";

type World = ItemsHttpWorld & { database: { knex: import("knex").Knex } };

/** The SQL adapter writes a change all or nothing, also when the database refuses part of it. */
function describeAtomicChanges(label: string, build: () => Promise<World>): void {
  describe(`shopping list repository, all or nothing: ${label}`, function () {
    this.timeout(120_000);
    let w: World;
    let repository: KnexShoppingListRepository;
    before(async () => {
      w = await build();
      repository = new KnexShoppingListRepository(w.database.knex);
    });
    after(async () => {
      await w?.close();
    });

    const now = new Date("2026-11-26T10:00:00Z");
    const entry = (id: string, position: number): ShoppingListEntry => ({
      id,
      householdId: w.hid,
      name: `Entry ${id}`,
      quantity: 1,
      unit: "piece",
      categoryId: null,
      checked: true,
      position,
      createdAt: now,
      updatedAt: now,
      createdById: w.member.id,
      updatedById: w.member.id,
    });
    const outboxCount = async () =>
      Number((await w.database.knex("inventory_outbox").count({ n: "*" }).first())?.n ?? 0);

    it("an unknown household writes nothing and answers undefined", async () => {
      const answer = await repository.change("nosuchhousehold1", () => ({
        save: [entry("ghostentry01", 0)],
        result: 1,
      }));
      expect(answer).to.equal(undefined);
      expect(await repository.list("nosuchhousehold1")).to.deep.equal([]);
    });

    it("a changer that throws writes nothing", async () => {
      await repository.change(w.hid, () => ({ save: [entry("keepentry001", 0)], result: null }));
      const events = await outboxCount();
      const refused = await repository
        .change(w.hid, () => {
          throw new Error("refused");
        })
        .catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(Error).with.property("message", "refused");
      expect((await repository.list(w.hid)).map((e) => e.id)).to.deep.equal(["keepentry001"]);
      expect(await outboxCount()).to.equal(events);
    });

    it("an item the database refuses (its compartment vanished) takes back the removals and events of the change", async () => {
      const events = await outboxCount();
      const item: FreezerItem = {
        id: "stockeditem01",
        householdId: w.hid,
        freezerId: w.freezerId,
        compartmentId: "vanishedcompartment",
        name: "Peas",
        quantity: 1,
        unit: "piece",
        categoryId: null,
        notes: null,
        barcode: null,
        storedAt: now,
        expiresAt: null,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
        createdById: w.member.id,
        updatedById: w.member.id,
      };
      const refused = await repository
        .change(w.hid, (entries) => ({
          remove: entries.map((e) => e.id),
          items: [item],
          events: [
            {
              id: "eventid00001",
              type: "shopping_list.removed",
              householdId: w.hid,
              occurredAt: now,
              actor: null,
              data: { entryId: "keepentry001", name: "Entry keepentry001" },
            },
          ],
          result: null,
        }))
        .catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(InvalidItemPlacementError);
      expect((await repository.list(w.hid)).map((e) => e.id)).to.deep.equal(["keepentry001"]);
      expect(await outboxCount()).to.equal(events);
      expect(await w.database.knex("freezer_items").where({ id: "stockeditem01" }).first()).to.equal(undefined);
    });

    it("an entry of fractional bags from before they had to be whole stops the put-away, naming it, and nothing changes", async () => {
      await repository.change(w.hid, (entries) => ({ remove: entries.map((e) => e.id), result: null }));
      await repository.change(w.hid, () => ({
        save: [entry("wholeentry01", 0), { ...entry("legacyentry1", 1), name: "Peas", quantity: 1.5, unit: "bag" }],
        result: null,
      }));
      const events = await outboxCount();
      const refused = await request(w.app)
        .post(`/api/v1/households/${w.hid}/shopping-list/checked/stock`)
        .set("Authorization", `Bearer ${w.member.token}`)
        .send({ freezerId: w.freezerId, compartmentId: w.compartmentIds[0] });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
      expect(refused.headers["hearth-error-code"]).to.equal("QUANTITY_NOT_WHOLE");
      expect(refused.body.message).to.match(/^Peas is on the list as 1\.5 bag/);
      expect((await repository.list(w.hid)).map((e) => e.id)).to.deep.equal(["wholeentry01", "legacyentry1"]);
      expect(await outboxCount()).to.equal(events);
      // Corrected, it goes into the freezer with the rest.
      const fixed = await request(w.app)
        .patch(`/api/v1/households/${w.hid}/shopping-list/legacyentry1`)
        .set("Authorization", `Bearer ${w.member.token}`)
        .send({ quantity: 2 });
      expect(fixed.status, JSON.stringify(fixed.body)).to.equal(200);
      const stocked = await request(w.app)
        .post(`/api/v1/households/${w.hid}/shopping-list/checked/stock`)
        .set("Authorization", `Bearer ${w.member.token}`)
        .send({ freezerId: w.freezerId, compartmentId: w.compartmentIds[0] });
      expect(stocked.status, JSON.stringify(stocked.body)).to.equal(201);
      expect(stocked.body.itemsCreated).to.equal(2);
    });
  });
}

describeAtomicChanges("knex + PGlite", () => knexItemsWorld());
describeAtomicChanges("knex + acquired PostgreSQL", async () => {
  const server = await acquireDatabase("shopping list atomic changes");
  const world = await knexItemsWorld(server.url);
  return {
    ...world,
    close: async () => {
      await world.close();
      await server.release();
    },
  };
});
