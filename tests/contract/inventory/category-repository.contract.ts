import { expect } from "chai";
import type { InventoryEvent } from "../../../src/domain/inventory/inventory-event.js";
import type { ItemCategory } from "../../../src/domain/inventory/item-category.js";
import type { CategoryRepository } from "../../../src/ports/category-repository.js";
import type { InventoryEventFeed } from "../../../src/ports/inventory-event-feed.js";
import type { ItemRepository } from "../../../src/ports/item-repository.js";
import { type ItemWorld, itemIn } from "../../support/item-fixtures.js";

export interface CategoryRepositoryHarness {
  categories: CategoryRepository;
  items: ItemRepository;
  /** The outbox the repositories write to, as the live streams read it. */
  feed: InventoryEventFeed;
  /** The world of item-fixtures: home has Meat and Fish, away has Meat. */
  world: ItemWorld;
}

let counter = 0;
function category(world: ItemWorld, overrides: Partial<ItemCategory> = {}): ItemCategory {
  counter += 1;
  const at = new Date(Date.UTC(2026, 10, 1, 12, 0, counter));
  return {
    id: `kcat${Date.now().toString(36)}${counter}`,
    householdId: world.home.householdId,
    key: null,
    name: `Category ${counter}`,
    position: 5,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/**
 * Categories and the item columns that refer to them, the same on every adapter: names unique
 * per household ignoring case, deletes that uncategorise items, units and category filters.
 */
export function describeCategoryRepositoryContract(
  label: string,
  setup: () => Promise<CategoryRepositoryHarness>,
): void {
  describe(`CategoryRepository and item categories contract: ${label}`, () => {
    let h: CategoryRepositoryHarness;
    beforeEach(async () => {
      h = await setup();
    });

    it("lists a household's categories by position, then name ignoring case; never another's", async () => {
      await h.categories.insert(category(h.world, { name: "apples", position: 1 }));
      await h.categories.insert(category(h.world, { name: "Zucchini", position: 1 }));
      const names = (await h.categories.list(h.world.home.householdId)).map((c) => c.name);
      expect(names).to.deep.equal(["Meat", "apples", "Fish", "Zucchini"]);
      expect((await h.categories.list(h.world.away.householdId)).map((c) => c.name)).to.deep.equal(["Meat"]);
      expect(await h.categories.find(h.world.home.householdId, h.world.away.categoryId)).to.equal(null);
    });

    it("refuses a name the household has, ignoring case, on insert and update; another household may have it", async () => {
      expect(await h.categories.insert(category(h.world, { name: "MEAT" }))).to.equal("name-taken");
      expect(
        await h.categories.insert(category(h.world, { householdId: h.world.away.householdId, name: "Fish" })),
      ).to.equal("written");
      const fish = (await h.categories.find(h.world.home.householdId, h.world.home.categoryIds[1]))!;
      expect(await h.categories.update({ ...fish, name: "meat" })).to.equal("name-taken");
      expect((await h.categories.find(h.world.home.householdId, fish.id))?.name).to.equal("Fish");
      expect(await h.categories.update({ ...fish, name: "Seafood", position: 7 })).to.equal("written");
      expect(await h.categories.find(h.world.home.householdId, fish.id)).to.include({ name: "Seafood", position: 7 });
      expect(await h.categories.update({ ...fish, householdId: h.world.away.householdId })).to.equal("not-found");
    });

    it("deletes a category, uncategorising its items (active and archived) with the event in the same change", async () => {
      const [meat] = h.world.home.categoryIds;
      const steak = itemIn(h.world, { name: "Steak", categoryId: meat });
      const old = itemIn(h.world, { name: "Old ribs", categoryId: meat, deletedAt: new Date(Date.UTC(2026, 0, 2)) });
      const peas = itemIn(h.world, { name: "Peas" });
      await h.items.insertMany([steak, old, peas]);
      // Read once first, so a cached page has to notice the change.
      expect(
        (await h.items.list({ householdId: h.world.home.householdId, categoryId: meat, page: 1, limit: 10 })).total,
      ).to.equal(1);
      const head = await h.feed.head();
      const deleted = await h.categories.delete(h.world.home.householdId, meat, (itemCount) => [
        {
          id: `evdel${counter++}${Date.now().toString(36)}`,
          type: "category.deleted",
          householdId: h.world.home.householdId,
          occurredAt: new Date(),
          actor: null,
          data: { categoryId: meat, itemCount },
        },
      ]);
      expect(deleted).to.deep.equal({ itemCount: 2 });
      expect((await h.items.findById(h.world.home.householdId, steak.id))?.categoryId).to.equal(null);
      expect((await h.items.findById(h.world.home.householdId, old.id))?.categoryId).to.equal(null);
      const page = await h.items.list({ householdId: h.world.home.householdId, categoryId: null, page: 1, limit: 10 });
      expect(page.items.map((item) => item.name).sort()).to.deep.equal(["Peas", "Steak"]);
      const events: InventoryEvent[] = (await h.feed.readAfter([h.world.home.householdId], head, 10)).map(
        (entry) => entry.event,
      );
      expect(events).to.have.length(1);
      expect(events[0]).to.deep.include({ type: "category.deleted", data: { categoryId: meat, itemCount: 2 } });
      expect(await h.categories.delete(h.world.home.householdId, meat, () => [])).to.equal(null);
      expect(await h.categories.delete(h.world.home.householdId, h.world.away.categoryId, () => [])).to.equal(null);
      expect(await h.categories.find(h.world.away.householdId, h.world.away.categoryId)).to.not.equal(null);
    });

    it("stores units and categories of items and filters the list by category or by none", async () => {
      const [meat, fish] = h.world.home.categoryIds;
      await h.items.insertMany([
        itemIn(h.world, { name: "Mince", unit: "kg", quantity: 0.5, categoryId: meat }),
        itemIn(h.world, { name: "Salmon", unit: "portion", quantity: 2, categoryId: fish }),
        itemIn(h.world, { name: "Bread", unit: "bag", quantity: 1 }),
      ]);
      const list = (categoryId?: string | null) =>
        h.items.list({
          householdId: h.world.home.householdId,
          categoryId,
          sort: "name",
          order: "asc",
          page: 1,
          limit: 10,
        });
      const meatPage = await list(meat);
      expect(meatPage.total).to.equal(1);
      expect(meatPage.items[0]).to.include({ name: "Mince", unit: "kg", quantity: 0.5, categoryId: meat });
      expect((await list(null)).items.map((item) => [item.name, item.unit])).to.deep.equal([["Bread", "bag"]]);
      expect((await list(undefined)).total).to.equal(3);
    });

    it("refuses to create an item under another household's category, writing nothing", async () => {
      const item = itemIn(h.world, { name: "Smuggled", categoryId: h.world.away.categoryId });
      expect(await h.items.createForMember(h.world.users.alice.id, item)).to.deep.equal({ refused: "category" });
      expect(await h.items.findById(h.world.home.householdId, item.id)).to.equal(undefined);
      const fine = itemIn(h.world, {
        name: "Trout",
        categoryId: h.world.home.categoryIds[1],
        unit: "g",
        quantity: 250,
      });
      const created = await h.items.createForMember(h.world.users.alice.id, fine);
      expect("created" in created && created.created).to.include({
        categoryId: h.world.home.categoryIds[1],
        unit: "g",
      });
    });
  });
}
