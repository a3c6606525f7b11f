import { expect } from "chai";
import { InvalidItemPlacementError } from "../../../../src/domain/inventory/item-errors.js";
import { itemUseCases, rejection } from "./item-harness.js";

describe("CreateItem", () => {
  it("lists items created within one millisecond newest first, in the order they were made", async () => {
    const uc = itemUseCases();
    // The fake clock stands still: every create happens "at the same time".
    const made = [];
    for (const name of ["First", "Second", "Third"]) made.push(await uc.create({ name }));
    expect(new Set(made.map((item) => item.createdAt.getTime())).size).to.equal(3);
    const page = await uc.listItems.execute({
      userId: uc.world.users.alice.id,
      householdId: uc.world.home.householdId,
      page: 1,
      limit: 20,
    });
    expect(page.data.map((item) => item.name)).to.deep.equal(["Third", "Second", "First"]);
  });

  it("creates an active item stored now by default, creator and updater the caller", async () => {
    const uc = itemUseCases();
    const item = await uc.create({ name: "Chicken thighs", quantity: 4, notes: "2 bags" });
    expect(item).to.include({ name: "Chicken thighs", quantity: 4, notes: "2 bags", deletedAt: null, expiresAt: null });
    expect(item.storedAt?.toISOString()).to.equal(uc.clock.now().toISOString());
    expect(item.createdAt.toISOString()).to.equal(uc.clock.now().toISOString());
    expect(item.createdBy).to.deep.equal(uc.world.users.alice);
    expect(item.updatedBy).to.deep.equal(uc.world.users.alice);
    expect(
      await uc.getItem.execute({
        userId: uc.world.users.alice.id,
        householdId: uc.world.home.householdId,
        itemId: item.id,
      }),
    ).to.deep.equal(item);
  });

  it("keeps given storedAt and expiresAt, and null storedAt as none", async () => {
    const uc = itemUseCases();
    const storedAt = new Date("2026-01-01T00:00:00.000Z");
    const expiresAt = new Date("2026-07-01T00:00:00.000Z");
    const item = await uc.create({ storedAt, expiresAt });
    expect(item.storedAt?.toISOString()).to.equal(storedAt.toISOString());
    expect(item.expiresAt?.toISOString()).to.equal(expiresAt.toISOString());
    expect((await uc.create({ storedAt: null })).storedAt).to.equal(null);
  });

  it("rejects a freezer of another household", async () => {
    const uc = itemUseCases();
    const error = await rejection(
      uc.create({ freezerId: uc.world.away.freezerId, compartmentId: uc.world.away.compartmentId }),
    );
    expect(error).to.be.instanceOf(InvalidItemPlacementError);
    expect((error as InvalidItemPlacementError).details?.[0]?.path).to.equal("freezerId");
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
  });

  it("rejects a compartment of another freezer", async () => {
    const uc = itemUseCases();
    const error = await rejection(uc.create({ compartmentId: uc.world.home.otherCompartmentId }));
    expect(error).to.be.instanceOf(InvalidItemPlacementError);
    expect((error as InvalidItemPlacementError).details?.[0]?.path).to.equal("compartmentId");
  });
});
