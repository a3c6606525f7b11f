import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

async function setup() {
  const fixture = inventoryFixture();
  const people = await fixture.householdWithMember();
  const other = await fixture.useCases.createHousehold.execute({ userId: people.outsider.id, name: "Elsewhere" });
  return { ...fixture, ...people, other };
}

describe("freezers: create, list, get, update, delete", () => {
  it("creates and lists freezers of the household", async () => {
    const { useCases, member, household, outsider, clock } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
      description: "garage",
    });
    expect(freezer).to.deep.include({ householdId: household.id, name: "Chest", description: "garage" });
    expect(Object.keys(freezer).sort()).to.deep.equal([
      "createdAt",
      "description",
      "householdId",
      "id",
      "name",
      "position",
    ]);
    clock.advance(1000);
    const plain = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Upright",
    });
    expect(plain.description).to.equal(null);
    expect(
      (await useCases.listFreezers.execute({ userId: member.id, householdId: household.id })).map((f) => f.name),
    ).to.deep.equal(["Chest", "Upright"]);
    await expectRejection(
      useCases.listFreezers.execute({ userId: outsider.id, householdId: household.id }),
      "NOT_HOUSEHOLD_MEMBER",
    );
  });

  it("gets a freezer with compartments by position, and treats another household's freezer as not found", async () => {
    const { useCases, member, outsider, household, other } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
    });
    const input = { userId: member.id, householdId: household.id, freezerId: freezer.id };
    await useCases.createCompartment.execute({ ...input, name: "Bottom", position: 2 });
    await useCases.createCompartment.execute({ ...input, name: "Top" });
    const detail = await useCases.getFreezer.execute(input);
    expect(detail.compartments.map((c) => [c.name, c.position])).to.deep.equal([
      ["Top", 0],
      ["Bottom", 2],
    ]);
    const foreign = await useCases.createFreezer.execute({
      userId: outsider.id,
      householdId: other.id,
      name: "Theirs",
    });
    await expectRejection(useCases.getFreezer.execute({ ...input, freezerId: foreign.id }), "FREEZER_NOT_FOUND");
  });

  it("updates name and description (null clears it)", async () => {
    const { useCases, member, household } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
      description: "x",
    });
    const input = { userId: member.id, householdId: household.id, freezerId: freezer.id };
    expect(await useCases.updateFreezer.execute({ ...input, name: "Big" })).to.include({
      name: "Big",
      description: "x",
    });
    expect(await useCases.updateFreezer.execute({ ...input, description: null })).to.include({
      name: "Big",
      description: null,
    });
  });

  it("puts a new freezer last and reorders by position, keeping name and description", async () => {
    const { useCases, member, household, outsider, other } = await setup();
    const base = { userId: member.id, householdId: household.id };
    const chest = await useCases.createFreezer.execute({ ...base, name: "Chest", description: "x" });
    const upright = await useCases.createFreezer.execute({ ...base, name: "Upright" });
    expect([chest.position, upright.position]).to.deep.equal([0, 1]);
    // Another household's freezers do not push this household's new ones further down.
    expect(
      (await useCases.createFreezer.execute({ userId: outsider.id, householdId: other.id, name: "Theirs" })).position,
    ).to.equal(0);
    const moved = await useCases.updateFreezer.execute({ ...base, freezerId: upright.id, position: 0 });
    expect(moved).to.include({ name: "Upright", position: 0 });
    await useCases.updateFreezer.execute({ ...base, freezerId: chest.id, position: 5 });
    expect((await useCases.listFreezers.execute(base)).map((f) => [f.name, f.description, f.position])).to.deep.equal([
      ["Upright", null, 0],
      ["Chest", "x", 5],
    ]);
    const garage = await useCases.createFreezer.execute({ ...base, name: "Garage" });
    expect(garage.position).to.equal(6);
  });

  it("deletes (owner only) an empty freezer and refuses one holding items", async () => {
    const { useCases, owner, member, household, store } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
    });
    const input = { householdId: household.id, freezerId: freezer.id };
    await useCases.createCompartment.execute({ ...input, userId: member.id, name: "Top" });
    await expectRejection(useCases.deleteFreezer.execute({ ...input, userId: member.id }), "NOT_HOUSEHOLD_OWNER");
    store.itemsIn = (where) => where.freezerId === freezer.id;
    await expectRejection(useCases.deleteFreezer.execute({ ...input, userId: owner.id }), "FREEZER_NOT_EMPTY");
    store.itemsIn = () => false;
    expect(await useCases.deleteFreezer.execute({ ...input, userId: owner.id })).to.have.property("message");
    expect(store.compartments.size).to.equal(0);
    await expectRejection(useCases.deleteFreezer.execute({ ...input, userId: owner.id }), "FREEZER_NOT_FOUND");
  });
});
