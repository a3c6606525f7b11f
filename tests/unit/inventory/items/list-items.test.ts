import { expect } from "chai";
import { itemUseCases } from "./item-harness.js";

describe("ListItems", () => {
  it("returns a page of active items with total, page and limit", async () => {
    const uc = itemUseCases();
    for (const name of ["Peas", "Chicken thighs", "Chicken wings", "Crème fraîche"]) {
      await uc.create({ name });
      uc.clock.advance(1000);
    }
    const archived = await uc.create({ name: "Chicken soup" });
    await uc.archiveItem.execute({
      householdId: uc.world.home.householdId,
      itemId: archived.id,
      userId: uc.world.users.alice.id,
    });

    const page = await uc.listItems.execute({
      userId: uc.world.users.alice.id,
      householdId: uc.world.home.householdId,
      page: 2,
      limit: 3,
    });
    expect(page).to.include({ total: 4, page: 2, limit: 3 });
    expect(page.data.map((item) => item.name)).to.deep.equal(["Peas"]);

    const search = await uc.listItems.execute({
      userId: uc.world.users.alice.id,
      householdId: uc.world.home.householdId,
      search: "chick",
      page: 1,
      limit: 20,
    });
    expect(search.data.map((item) => item.name)).to.deep.equal(["Chicken thighs", "Chicken wings"]);
    const accents = await uc.listItems.execute({
      userId: uc.world.users.alice.id,
      householdId: uc.world.home.householdId,
      search: "creme",
      page: 1,
      limit: 20,
    });
    expect(accents.data.map((item) => item.name)).to.deep.equal(["Crème fraîche"]);
  });

  it("never shows another household's items", async () => {
    const uc = itemUseCases();
    await uc.create();
    const page = await uc.listItems.execute({
      userId: uc.world.users.bob.id,
      householdId: uc.world.away.householdId,
      page: 1,
      limit: 20,
    });
    expect(page).to.deep.equal({ data: [], total: 0, page: 1, limit: 20 });
  });
});
