import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("inventory events of freezers, compartments and members", () => {
  it("freezers and compartments created and deleted, members joined, role changed and left, each in the outbox", async () => {
    const { useCases, householdWithMember, store } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const freezer = await useCases.createFreezer.execute({
      userId: member.id,
      householdId: household.id,
      name: "Chest",
    });
    const compartment = await useCases.createCompartment.execute({
      userId: member.id,
      householdId: household.id,
      freezerId: freezer.id,
      name: "Top",
    });
    await useCases.deleteCompartment.execute({
      userId: owner.id,
      householdId: household.id,
      freezerId: freezer.id,
      compartmentId: compartment.id,
    });
    await useCases.deleteFreezer.execute({ userId: owner.id, householdId: household.id, freezerId: freezer.id });
    await useCases.transferOwnership.execute({ userId: owner.id, householdId: household.id, newOwnerId: member.id });
    await useCases.leaveHousehold.execute({ userId: owner.id, householdId: household.id });

    const events = store.outbox.all();
    expect(events.map((event) => [event.type, event.data])).to.deep.equal([
      ["member.joined", { userId: member.id, role: "MEMBER" }],
      ["freezer.created", { freezerId: freezer.id, name: "Chest" }],
      ["compartment.created", { freezerId: freezer.id, compartmentId: compartment.id, name: "Top" }],
      ["compartment.deleted", { freezerId: freezer.id, compartmentId: compartment.id }],
      ["freezer.deleted", { freezerId: freezer.id }],
      ["member.role_changed", { userId: member.id, role: "OWNER" }],
      ["member.role_changed", { userId: owner.id, role: "MEMBER" }],
      ["member.left", { userId: owner.id, removed: false }],
    ]);
    expect(events.every((event) => event.householdId === household.id)).to.equal(true);
    expect(JSON.stringify(events)).not.to.include("@example.com");
  });

  it("deleting a household records household.deleted with its name; a refused delete records nothing", async () => {
    const { useCases, householdWithMember, store } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    await expectRejection(
      useCases.deleteHousehold.execute({ userId: member.id, householdId: household.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    expect(store.outbox.all().map((event) => event.type)).not.to.include("household.deleted");
    await useCases.deleteHousehold.execute({ userId: owner.id, householdId: household.id });
    const last = store.outbox.all().at(-1);
    expect(last).to.deep.include({
      type: "household.deleted",
      householdId: household.id,
      data: { name: household.name },
    });
    expect(last?.actor).to.deep.equal({ kind: "user", id: owner.id });
  });

  it("a refused change writes no event", async () => {
    const { useCases, householdWithMember, store } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const before = store.outbox.all().length;
    await expectRejection(
      useCases.removeMember.execute({ userId: member.id, householdId: household.id, memberUserId: owner.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    await expectRejection(
      useCases.deleteFreezer.execute({ userId: owner.id, householdId: household.id, freezerId: "nosuchfreezer1" }),
      "FREEZER_NOT_FOUND",
    );
    expect(store.outbox.all()).to.have.length(before);
    await useCases.removeMember.execute({ userId: owner.id, householdId: household.id, memberUserId: member.id });
    expect(store.outbox.all().at(-1)?.data).to.deep.equal({ userId: member.id, removed: true });
  });
});
