import { expect } from "chai";
import {
  InvalidItemPlacementError,
  ItemArchivedError,
  ItemNotFoundError,
} from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("UpdateItem", () => {
  it("changes the given fields, sets updatedBy/updatedAt and logs one entry per changed field", async () => {
    const uc = itemUseCases();
    const item = await uc.create({ name: "Peas", quantity: 1 });
    uc.clock.advance(60_000);
    const key = { userId: uc.world.users.alice.id, householdId: uc.world.home.householdId, itemId: item.id };
    const updated = await uc.updateItem.execute({
      ...key,
      userId: uc.world.users.bob.id,
      patch: { name: "Garden peas", quantity: 1, notes: "from the garden" },
    });
    expect(updated).to.include({ name: "Garden peas", quantity: 1, notes: "from the garden" });
    expect(updated.updatedBy).to.deep.equal(uc.world.users.bob);
    expect(updated.createdBy).to.deep.equal(uc.world.users.alice);
    expect(updated.updatedAt.toISOString()).to.equal(uc.clock.now().toISOString());
    const history = await uc.getItemHistory.execute(key);
    expect(history.map((e) => [e.fieldName, e.oldValue, e.newValue])).to.deep.equal([
      ["name", "Peas", "Garden peas"],
      ["notes", null, "from the garden"],
    ]);
    expect(history[0]!.changedBy).to.deep.equal(uc.world.users.bob);
  });

  it("moves an item to a compartment of another freezer of the household", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const moved = await uc.updateItem.execute({
      householdId: uc.world.home.householdId,
      itemId: item.id,
      userId: uc.world.users.alice.id,
      patch: { freezerId: uc.world.home.otherFreezerId, compartmentId: uc.world.home.otherCompartmentId },
    });
    expect(moved).to.include({
      freezerId: uc.world.home.otherFreezerId,
      compartmentId: uc.world.home.otherCompartmentId,
    });
  });

  it("rejects a freezer move without a matching compartment, or foreign placements", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    for (const patch of [
      { freezerId: uc.world.home.otherFreezerId },
      { compartmentId: uc.world.home.otherCompartmentId },
      { freezerId: uc.world.away.freezerId, compartmentId: uc.world.away.compartmentId },
    ]) {
      expect(await rejection(uc.updateItem.execute({ ...key, patch }))).to.be.instanceOf(InvalidItemPlacementError);
    }
    expect((await uc.getItem.execute(key)).freezerId).to.equal(uc.world.home.freezerId);
    expect(await uc.getItemHistory.execute(key)).to.deep.equal([]);
  });

  it("refuses to change an archived item", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    await uc.archiveItem.execute(key);
    expect(await rejection(uc.updateItem.execute({ ...key, patch: { quantity: 5 } }))).to.be.instanceOf(
      ItemArchivedError,
    );
    expect(
      await rejection(uc.updateItem.execute({ ...key, patch: { compartmentId: uc.world.home.compartmentIds[1] } })),
    ).to.be.instanceOf(ItemArchivedError);
  });

  it("is not found from another household", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const error = await rejection(
      uc.updateItem.execute({
        householdId: uc.world.away.householdId,
        itemId: item.id,
        userId: uc.world.users.bob.id,
        patch: { quantity: 2 },
      }),
    );
    expect(error).to.be.instanceOf(ItemNotFoundError);
  });

  it("chains old and new values across successive changes even within one millisecond", async () => {
    const uc = itemUseCases();
    const item = await uc.create({ quantity: 1 });
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    await Promise.all([2, 3, 4, 5].map((quantity) => uc.updateItem.execute({ ...key, patch: { quantity } })));
    const history = await uc.getItemHistory.execute(key);
    expect(history).to.have.length(4);
    const oldestFirst = [...history].reverse();
    expect(oldestFirst[0]!.oldValue).to.equal("1");
    for (let index = 1; index < oldestFirst.length; index++) {
      expect(oldestFirst[index]!.oldValue).to.equal(oldestFirst[index - 1]!.newValue);
      expect(oldestFirst[index]!.changedAt.getTime()).to.be.greaterThan(oldestFirst[index - 1]!.changedAt.getTime());
    }
  });
});
