import { expect } from "chai";
import { ItemAlreadyArchivedError, ItemNotFoundError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("ArchiveItem", () => {
  it("sets deletedAt to now and hides the item from the list", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    uc.clock.advance(5000);
    const archived = await uc.archiveItem.execute({
      householdId: uc.world.home.householdId,
      itemId: item.id,
      userId: uc.world.users.bob.id,
    });
    expect(archived.deletedAt?.toISOString()).to.equal(uc.clock.now().toISOString());
    expect(
      (
        await uc.listItems.execute({
          userId: uc.world.users.alice.id,
          householdId: uc.world.home.householdId,
          page: 1,
          limit: 20,
        })
      ).total,
    ).to.equal(0);
    expect(
      await uc.getItemHistory.execute({
        userId: uc.world.users.alice.id,
        householdId: uc.world.home.householdId,
        itemId: item.id,
      }),
    ).to.deep.equal([]);
  });

  it("refuses to archive twice and is not found across households", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    await uc.archiveItem.execute(key);
    expect(await rejection(uc.archiveItem.execute(key))).to.be.instanceOf(ItemAlreadyArchivedError);
    const away = { ...key, householdId: uc.world.away.householdId, userId: uc.world.users.bob.id };
    expect(await rejection(uc.archiveItem.execute(away))).to.be.instanceOf(ItemNotFoundError);
  });
});
