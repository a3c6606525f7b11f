import { expect } from "chai";
import { ItemNotFoundError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("GetItem", () => {
  it("returns active and archived items", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    const key = { userId: uc.world.users.alice.id, householdId: uc.world.home.householdId, itemId: item.id };
    expect((await uc.getItem.execute(key)).id).to.equal(item.id);
    await uc.archiveItem.execute({ ...key, userId: uc.world.users.bob.id });
    expect((await uc.getItem.execute(key)).deletedAt).to.be.instanceOf(Date);
  });

  it("is not found from another household or for an unknown id", async () => {
    const uc = itemUseCases();
    const item = await uc.create();
    expect(
      await rejection(
        uc.getItem.execute({ userId: uc.world.users.bob.id, householdId: uc.world.away.householdId, itemId: item.id }),
      ),
    ).to.be.instanceOf(ItemNotFoundError);
    expect(
      await rejection(
        uc.getItem.execute({ userId: uc.world.users.alice.id, householdId: uc.world.home.householdId, itemId: "nope" }),
      ),
    ).to.be.instanceOf(ItemNotFoundError);
  });
});
