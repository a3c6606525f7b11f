import { expect } from "chai";
import { NotHouseholdMemberError } from "../../../src/domain/inventory/errors.js";
import { ItemArchivedError, ItemUsedUpError, NotEnoughLeftError } from "../../../src/domain/inventory/item-errors.js";
import type { InventoryEvent } from "../../../src/domain/inventory/inventory-event.js";
import { itemUseCases, rejection } from "./items/item-harness.js";

describe("inventory events of the item use cases", () => {
  it("every change writes its events with a unique id, the time, the actor and no e-mail", async () => {
    const uc = itemUseCases();
    const { householdId } = uc.world.home;
    const alice = uc.world.users.alice.id;
    const item = await uc.create({ expiresAt: new Date("2026-05-03T00:00:00Z") });
    uc.clock.advance(1000);
    await uc.updateItem.execute({
      householdId,
      itemId: item.id,
      userId: alice,
      patch: { name: "Garden peas", quantity: 3 },
    });
    uc.clock.advance(1000);
    await uc.updateItem.execute({
      householdId,
      itemId: item.id,
      userId: alice,
      patch: { compartmentId: uc.world.home.compartmentIds[1] },
    });
    await uc.archiveItem.execute({ householdId, itemId: item.id, userId: alice });
    await uc.restoreItem.execute({ householdId, itemId: item.id, userId: alice });
    await uc.archiveItem.execute({ householdId, itemId: item.id, userId: alice });
    await uc.deleteItemPermanently.execute({ householdId, itemId: item.id, userId: alice });

    const events = uc.outbox.all();
    expect(events.map((event) => event.type)).to.deep.equal([
      "item.created",
      "item.updated",
      "item.updated",
      "item.moved",
      "item.archived",
      "item.restored",
      "item.archived",
      "item.deleted",
    ]);
    expect(new Set(events.map((event) => event.id)).size).to.equal(events.length);
    for (const event of events) {
      expect(event.householdId).to.equal(householdId);
      expect(event.actor).to.deep.equal({ kind: "user", id: alice });
      expect(JSON.stringify(event)).not.to.include("@");
    }
    expect(events[0]?.occurredAt.toISOString()).to.equal("2026-05-01T08:00:00.000Z");
    expect(events[1]?.data).to.deep.include({ changes: ["name", "quantity"] });
    expect(events[3]?.data).to.deep.include({
      from: { freezerId: uc.world.home.freezerId, compartmentId: uc.world.home.compartmentIds[0] },
    });
    expect(events[7]?.data).to.deep.equal({ itemId: item.id, name: "Garden peas" });
  });

  it("a patch that changes nothing and a refused change write no event", async () => {
    const uc = itemUseCases();
    const { householdId } = uc.world.home;
    const item = await uc.create();
    await uc.updateItem.execute({
      householdId,
      itemId: item.id,
      userId: uc.world.users.alice.id,
      patch: { name: "Peas" },
    });
    // Alice is no member of the away household.
    await rejection(
      uc.updateItem.execute({
        householdId: uc.world.away.householdId,
        itemId: item.id,
        userId: uc.world.users.alice.id,
        patch: { name: "X" },
      }),
    );
    expect(uc.outbox.all().map((event) => event.type)).to.deep.equal(["item.created"]);
  });
});

describe("ConsumeItem", () => {
  it("takes units out and records the quantity change as a PATCH does", async () => {
    const uc = itemUseCases();
    const { householdId } = uc.world.home;
    const bob = uc.world.users.bob.id;
    const item = await uc.create({ quantity: 3 });
    uc.clock.advance(1000);
    const after = await uc.consumeItem.execute({ householdId, itemId: item.id, userId: bob, quantity: 1 });
    expect(after).to.include({ quantity: 2, deletedAt: null, updatedById: bob });
    const history = await uc.getItemHistory.execute({ householdId, itemId: item.id, userId: bob });
    expect(history.map(({ fieldName, oldValue, newValue }) => ({ fieldName, oldValue, newValue }))).to.deep.equal([
      { fieldName: "quantity", oldValue: "3", newValue: "2" },
    ]);
    const consumed = uc.outbox.all().at(-1);
    expect(consumed?.type).to.equal("item.consumed");
    expect(consumed?.data).to.deep.include({ quantity: 1, remaining: 2 });
  });

  it("archives the item as used up at zero, and a used-up item cannot be restored", async () => {
    const uc = itemUseCases();
    const { householdId } = uc.world.home;
    const alice = uc.world.users.alice.id;
    const item = await uc.create({ quantity: 0.3 });
    await uc.consumeItem.execute({ householdId, itemId: item.id, userId: alice, quantity: 0.1 });
    const gone = await uc.consumeItem.execute({ householdId, itemId: item.id, userId: alice, quantity: 0.2 });
    expect(gone.quantity).to.equal(0);
    expect(gone.deletedAt).to.not.equal(null);
    const [consumed, archived] = uc.outbox.all().slice(-2) as [InventoryEvent, InventoryEvent];
    expect([consumed.type, archived.type]).to.deep.equal(["item.consumed", "item.archived"]);
    expect(consumed.data).to.deep.include({ quantity: 0.2, remaining: 0 });
    expect(archived.data).to.deep.include({ reason: "used_up" });
    expect((archived.data as { item: { quantity: number; archived: boolean } }).item).to.include({
      quantity: 0,
      archived: true,
    });
    expect(await rejection(uc.restoreItem.execute({ householdId, itemId: item.id, userId: alice }))).to.be.instanceOf(
      ItemUsedUpError,
    );
  });

  it("refuses more than is left (saying how many), archived items and non-members, changing nothing", async () => {
    const uc = itemUseCases();
    const { householdId } = uc.world.home;
    const alice = uc.world.users.alice.id;
    const item = await uc.create({ quantity: 2 });
    const tooMany = await rejection(
      uc.consumeItem.execute({ householdId, itemId: item.id, userId: alice, quantity: 3 }),
    );
    expect(tooMany).to.be.instanceOf(NotEnoughLeftError);
    expect((tooMany as Error).message).to.equal("Only 2 left of this item");
    const outsider = await rejection(
      uc.consumeItem.execute({ householdId: uc.world.away.householdId, itemId: item.id, userId: alice, quantity: 1 }),
    );
    expect(outsider).to.be.instanceOf(NotHouseholdMemberError);
    await uc.archiveItem.execute({ householdId, itemId: item.id, userId: alice });
    expect(
      await rejection(uc.consumeItem.execute({ householdId, itemId: item.id, userId: alice, quantity: 1 })),
    ).to.be.instanceOf(ItemArchivedError);
    expect((await uc.items.findById(householdId, item.id))?.quantity).to.equal(2);
  });
});

describe("ListExpiringItems", () => {
  it("lists active items expired or expiring within N days, soonest first, paged", async () => {
    const uc = itemUseCases();
    const { householdId } = uc.world.home;
    const alice = uc.world.users.alice.id;
    // The clock stands at 2026-05-01T08:00Z.
    await uc.create({ name: "Expired", expiresAt: new Date("2026-04-20T00:00:00Z") });
    await uc.create({ name: "Tomorrow", expiresAt: new Date("2026-05-02T00:00:00Z") });
    await uc.create({ name: "Next week", expiresAt: new Date("2026-05-08T00:00:00Z") });
    await uc.create({ name: "No date" });
    const archived = await uc.create({ name: "Archived", expiresAt: new Date("2026-04-25T00:00:00Z") });
    await uc.archiveItem.execute({ householdId, itemId: archived.id, userId: alice });
    const page = await uc.listExpiringItems.execute({ householdId, userId: alice, days: 3, page: 1, limit: 20 });
    expect(page.data.map((item) => item.name)).to.deep.equal(["Expired", "Tomorrow"]);
    expect(page.total).to.equal(2);
    const second = await uc.listExpiringItems.execute({ householdId, userId: alice, days: 10, page: 2, limit: 2 });
    expect(second.data.map((item) => item.name)).to.deep.equal(["Next week"]);
    expect(
      await rejection(
        uc.listExpiringItems.execute({
          householdId: uc.world.away.householdId,
          userId: alice,
          days: 3,
          page: 1,
          limit: 20,
        }),
      ),
    ).to.be.instanceOf(NotHouseholdMemberError);
  });
});
