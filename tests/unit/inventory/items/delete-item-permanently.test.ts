import { expect } from "chai";
import { ItemNotArchivedError, ItemNotFoundError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("DeleteItemPermanently", () => {
  it("refuses an active item and leaves it in place", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { userId: uc.world.users.alice.id, householdId: uc.world.home.householdId, itemId: item.id };
    expect(await rejection(uc.deleteItemPermanently.execute(key))).to.be.instanceOf(ItemNotArchivedError);
    expect((await uc.getItem.execute(key)).deletedAt).to.equal(null);
  });

  it("removes an archived item for good", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { userId: uc.world.users.alice.id, householdId: uc.world.home.householdId, itemId: item.id };
    await uc.archiveItem.execute({ ...key, userId: uc.world.users.alice.id });
    await uc.deleteItemPermanently.execute(key);
    expect(await rejection(uc.getItem.execute(key))).to.be.instanceOf(ItemNotFoundError);
    expect(await rejection(uc.deleteItemPermanently.execute(key))).to.be.instanceOf(ItemNotFoundError);
  });

  it("is not found across households", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    await uc.archiveItem.execute({
      householdId: uc.world.home.householdId,
      itemId: item.id,
      userId: uc.world.users.alice.id,
    });
    expect(
      await rejection(
        uc.deleteItemPermanently.execute({
          userId: uc.world.users.bob.id,
          householdId: uc.world.away.householdId,
          itemId: item.id,
        }),
      ),
    ).to.be.instanceOf(ItemNotFoundError);
  });
});
