import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

async function setup() {
  const fixture = inventoryFixture();
  const people = await fixture.householdWithMember();
  const other = await fixture.useCases.createHousehold.execute({ userId: people.outsider.id, name: "Elsewhere" });
  return { ...fixture, ...people, other };
}

describe("compartments: create, list, get, update, delete", () => {
  it("creates with position 0 by default and lists by position then name", async () => {
    const { useCases, member, household } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
    });
    const input = { userId: member.id, householdId: household.id, freezerId: freezer.id };
    const top = await useCases.createCompartment.execute({ ...input, name: "Top" });
    expect(top).to.deep.equal({ id: top.id, freezerId: freezer.id, name: "Top", position: 0 });
    await useCases.createCompartment.execute({ ...input, name: "B", position: 1 });
    await useCases.createCompartment.execute({ ...input, name: "A", position: 1 });
    expect((await useCases.listCompartments.execute(input)).map((c) => c.name)).to.deep.equal(["Top", "A", "B"]);
    expect(await useCases.getCompartment.execute({ ...input, compartmentId: top.id })).to.deep.equal(top);
  });

  it("treats a compartment of another freezer as not found", async () => {
    const { useCases, member, household } = await setup();
    const input = { userId: member.id, householdId: household.id };
    const first = await useCases.createFreezer.execute({ ...input, name: "One" });
    const second = await useCases.createFreezer.execute({ ...input, name: "Two" });
    const compartment = await useCases.createCompartment.execute({ ...input, freezerId: first.id, name: "Top" });
    await expectRejection(
      useCases.getCompartment.execute({ ...input, freezerId: second.id, compartmentId: compartment.id }),
      "COMPARTMENT_NOT_FOUND",
    );
    await expectRejection(
      useCases.createCompartment.execute({ ...input, freezerId: "missingfreezer1", name: "X" }),
      "FREEZER_NOT_FOUND",
    );
  });

  it("updates name and position", async () => {
    const { useCases, member, household } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
    });
    const input = { userId: member.id, householdId: household.id, freezerId: freezer.id };
    const c = await useCases.createCompartment.execute({ ...input, name: "Top" });
    expect(await useCases.updateCompartment.execute({ ...input, compartmentId: c.id, position: 3 })).to.include({
      name: "Top",
      position: 3,
    });
    expect(await useCases.updateCompartment.execute({ ...input, compartmentId: c.id, name: "Upper" })).to.include({
      name: "Upper",
      position: 3,
    });
  });

  it("deletes (owner only) an empty compartment and refuses one holding items", async () => {
    const { useCases, owner, member, household, store } = await setup();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
    });
    const c = await useCases.createCompartment.execute({
      userId: member.id,
      householdId: household.id,
      freezerId: freezer.id,
      name: "Top",
    });
    const input = { householdId: household.id, freezerId: freezer.id, compartmentId: c.id };
    await expectRejection(useCases.deleteCompartment.execute({ ...input, userId: member.id }), "NOT_HOUSEHOLD_OWNER");
    store.itemsIn = (where) => where.compartmentId === c.id;
    await expectRejection(useCases.deleteCompartment.execute({ ...input, userId: owner.id }), "COMPARTMENT_NOT_EMPTY");
    store.itemsIn = () => false;
    expect(await useCases.deleteCompartment.execute({ ...input, userId: owner.id })).to.have.property("message");
    await expectRejection(useCases.deleteCompartment.execute({ ...input, userId: owner.id }), "COMPARTMENT_NOT_FOUND");
  });
});
