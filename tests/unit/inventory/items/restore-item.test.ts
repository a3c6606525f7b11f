import { expect } from "chai";
import { ItemNotFoundError, ItemNotInArchiveError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("RestoreItem", () => {
  it("brings an archived item back into the list", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    await uc.archiveItem.execute(key);
    const restored = await uc.restoreItem.execute({ ...key, userId: uc.world.users.bob.id });
    expect(restored.deletedAt).to.equal(null);
    expect(restored.updatedBy).to.deep.equal(uc.world.users.bob);
    expect(
      (
        await uc.listItems.execute({
          userId: uc.world.users.alice.id,
          householdId: key.householdId,
          page: 1,
          limit: 20,
        })
      ).total,
    ).to.equal(1);
    expect(
      await uc.listArchivedItems.execute({ userId: uc.world.users.alice.id, householdId: key.householdId }),
    ).to.deep.equal([]);
  });

  it("refuses an active item and is not found across households", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { householdId: uc.world.home.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    expect(await rejection(uc.restoreItem.execute(key))).to.be.instanceOf(ItemNotInArchiveError);
    const away = { ...key, householdId: uc.world.away.householdId, userId: uc.world.users.bob.id };
    expect(await rejection(uc.restoreItem.execute(away))).to.be.instanceOf(ItemNotFoundError);
  });
});
