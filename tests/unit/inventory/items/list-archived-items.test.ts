import { expect } from "chai";
import { itemUseCases } from "./item-harness.js";

describe("ListArchivedItems", () => {
  it("lists archived items, most recently archived first", async () => {
    const uc = itemUseCases();
    const [a, b, c] = [await uc.create({ name: "A" }), await uc.create({ name: "B" }), await uc.create({ name: "C" })];
    for (const item of [b, a]) {
      uc.clock.advance(1000);
      await uc.archiveItem.execute({
        householdId: uc.world.home.householdId,
        itemId: item.id,
        userId: uc.world.users.alice.id,
      });
    }
    const archive = await uc.listArchivedItems.execute({
      userId: uc.world.users.alice.id,
      householdId: uc.world.home.householdId,
    });
    expect(archive.map((item) => item.name)).to.deep.equal(["A", "B"]);
    expect(archive.map((item) => item.id)).to.not.include(c.id);
  });
});
