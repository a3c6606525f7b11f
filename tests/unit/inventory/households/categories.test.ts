import { expect } from "chai";
import { DEFAULT_CATEGORIES } from "../../../../src/domain/inventory/item-category.js";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("household categories", () => {
  it("a new household starts with the defaults; the owner adds, renames (ending the key) and removes; members only read", async () => {
    const { useCases, householdWithMember, store } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const hid = household.id;
    const listed = await useCases.listCategories.execute({ userId: member.id, householdId: hid });
    expect(listed.map((category) => category.key)).to.deep.equal(DEFAULT_CATEGORIES.map((category) => category.key));

    const soups = await useCases.createCategory.execute({ userId: owner.id, householdId: hid, name: "  Soups " });
    expect(soups).to.include({ name: "Soups", key: null, position: DEFAULT_CATEGORIES.length });
    await expectRejection(
      useCases.createCategory.execute({ userId: owner.id, householdId: hid, name: "SOUPS" }),
      "CATEGORY_NAME_TAKEN",
    );
    await expectRejection(
      useCases.createCategory.execute({ userId: member.id, householdId: hid, name: "Mine" }),
      "NOT_HOUSEHOLD_OWNER",
    );

    const meat = listed[0]!;
    const renamed = await useCases.updateCategory.execute({
      userId: owner.id,
      householdId: hid,
      categoryId: meat.id,
      name: "Game",
    });
    expect(renamed).to.include({ name: "Game", key: null });
    const moved = await useCases.updateCategory.execute({
      userId: owner.id,
      householdId: hid,
      categoryId: listed[1]!.id,
      position: 20,
    });
    expect(moved).to.include({ key: "fish", position: 20 });

    const removed = await useCases.deleteCategory.execute({ userId: owner.id, householdId: hid, categoryId: soups.id });
    expect(removed.itemsUncategorised).to.equal(0);
    await expectRejection(
      useCases.deleteCategory.execute({ userId: owner.id, householdId: hid, categoryId: soups.id }),
      "CATEGORY_NOT_FOUND",
    );
    const types = store.outbox
      .all()
      .map((event) => event.type)
      .filter((type) => type.startsWith("category."));
    expect(types).to.deep.equal(["category.created", "category.updated", "category.updated", "category.deleted"]);
  });
});
