import { expect } from "chai";
import { ItemNotFoundError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("GetItemHistory", () => {
  it("lists changes newest first, one change's entries by field name with one changedAt", async () => {
    const uc = itemUseCases();
    const item = await uc.create({ quantity: 1 });
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    uc.clock.advance(1000);
    await uc.updateItem.execute({ ...key, patch: { quantity: 2, name: "Beans" } });
    uc.clock.advance(1000);
    await uc.updateItem.execute({ ...key, patch: { expiresAt: new Date("2026-12-24T00:00:00.000Z"), quantity: 2.5 } });
    const history = await uc.getItemHistory.execute(key);
    expect(history.map((e) => [e.fieldName, e.oldValue, e.newValue])).to.deep.equal([
      ["expiresAt", null, "2026-12-24T00:00:00.000Z"],
      ["quantity", "2", "2.5"],
      ["name", "Peas", "Beans"],
      ["quantity", "1", "2"],
    ]);
    expect(history[0]!.changedAt.getTime()).to.equal(history[1]!.changedAt.getTime());
    expect(history[0]!.changedAt.getTime()).to.be.greaterThan(history[2]!.changedAt.getTime());
    expect(history.every((e) => e.itemId === item.id)).to.equal(true);
  });

  it("is available for archived items and not found across households", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    await uc.archiveItem.execute({
      householdId: uc.world.home.householdId,
      itemId: item.id,
      userId: uc.world.users.alice.id,
    });
    expect(
      await uc.getItemHistory.execute({
        userId: uc.world.users.alice.id,
        householdId: uc.world.home.householdId,
        itemId: item.id,
      }),
    ).to.deep.equal([]);
    expect(
      await rejection(
        uc.getItemHistory.execute({
          userId: uc.world.users.bob.id,
          householdId: uc.world.away.householdId,
          itemId: item.id,
        }),
      ),
    ).to.be.instanceOf(ItemNotFoundError);
  });
});
