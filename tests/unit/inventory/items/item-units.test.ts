import { expect } from "chai";
import { applyItemPatch } from "../../../../src/domain/inventory/freezer-item.js";
import {
  convertQuantity,
  QuantityNotWholeError,
  quantityFitsUnit,
  UnitMismatchError,
} from "../../../../src/domain/inventory/item-unit.js";
import { NotEnoughLeftError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("item units", () => {
  it("portions and bags are whole numbers; pieces, weights and volumes take fractions", () => {
    expect(quantityFitsUnit(1.5, "bag")).to.equal(false);
    expect(quantityFitsUnit(2, "portion")).to.equal(true);
    expect(quantityFitsUnit(0.5, "piece")).to.equal(true);
    expect(quantityFitsUnit(0.25, "kg")).to.equal(true);
  });

  it("converts within mass and volume only, without binary noise", () => {
    expect(convertQuantity(250, "g", "kg")).to.equal(0.25);
    expect(convertQuantity(0.3, "l", "ml")).to.equal(300);
    expect(convertQuantity(1, "bag", "portion")).to.equal(undefined);
    expect(convertQuantity(1, "kg", "l")).to.equal(undefined);
  });

  it("a patch is checked on its result: the unit of 1.5 kg cannot become bags", async () => {
    const uc = itemUseCases();
    const item = await uc.create({ unit: "kg", quantity: 1.5 });
    const now = new Date("2027-01-01T00:00:00Z");
    const change = { by: "u", now, newId: () => "x" };
    expect(() => applyItemPatch(item, { unit: "bag" }, change)).to.throw(QuantityNotWholeError);
    const update = applyItemPatch(item, { unit: "bag", quantity: 2 }, change);
    expect(update.changes.map((entry) => entry.fieldName)).to.deep.equal(["quantity", "unit"]);
  });

  it("takes 250 g out of 1 kg, with the event in the item's unit and as asked", async () => {
    const uc = itemUseCases();
    const item = await uc.create({ unit: "kg", quantity: 1 });
    const key = { householdId: item.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    const left = await uc.consumeItem.execute({ ...key, quantity: 250, unit: "g" });
    expect(left).to.include({ quantity: 0.75, unit: "kg" });
    const consumed = uc.outbox.all().find((event) => event.type === "item.consumed");
    expect(consumed?.data).to.deep.include({ quantity: 0.25, remaining: 0.75, taken: { quantity: 250, unit: "g" } });
    expect(await rejection(uc.consumeItem.execute({ ...key, quantity: 1, unit: "l" }))).to.be.instanceOf(
      UnitMismatchError,
    );
    const tooMuch = await rejection(uc.consumeItem.execute({ ...key, quantity: 800, unit: "g" }));
    expect(tooMuch).to.be.instanceOf(NotEnoughLeftError);
    expect((tooMuch as Error).message).to.equal("Only 0.75 kg left of this item");
    const gone = await uc.consumeItem.execute({ ...key, quantity: 750, unit: "g" });
    expect(gone.quantity).to.equal(0);
    expect(gone.deletedAt).to.not.equal(null);
  });

  it("creates no half bag and takes no half portion out", async () => {
    const uc = itemUseCases();
    expect(await rejection(uc.create({ unit: "bag", quantity: 1.5 }))).to.be.instanceOf(QuantityNotWholeError);
    const soup = await uc.create({ unit: "portion", quantity: 3 });
    const key = { householdId: soup.householdId, itemId: soup.id, userId: uc.world.users.alice.id };
    expect(await rejection(uc.consumeItem.execute({ ...key, quantity: 0.5 }))).to.be.instanceOf(QuantityNotWholeError);
  });
});

describe("item categories in the use cases", () => {
  it("refuses another household's category on create and update; accepts the household's", async () => {
    const uc = itemUseCases();
    const foreign = await rejection(uc.create({ categoryId: uc.world.away.categoryId }));
    expect((foreign as { code?: string }).code).to.equal("INVALID_ITEM_CATEGORY");
    const item = await uc.create({ categoryId: uc.world.home.categoryIds[0] });
    expect(item.categoryId).to.equal(uc.world.home.categoryIds[0]);
    const key = { householdId: item.householdId, itemId: item.id, userId: uc.world.users.alice.id };
    const refused = await rejection(uc.updateItem.execute({ ...key, patch: { categoryId: uc.world.away.categoryId } }));
    expect((refused as { code?: string }).code).to.equal("INVALID_ITEM_CATEGORY");
    const moved = await uc.updateItem.execute({ ...key, patch: { categoryId: uc.world.home.categoryIds[1] } });
    expect(moved.categoryId).to.equal(uc.world.home.categoryIds[1]);
    const history = await uc.items.history(item.id);
    expect(history[0]).to.include({
      fieldName: "categoryId",
      oldValue: uc.world.home.categoryIds[0],
      newValue: uc.world.home.categoryIds[1],
    });
  });
});
