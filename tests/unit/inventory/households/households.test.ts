import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("create, list, get, update, delete household", () => {
  it("makes the creator the owner and lists only the caller's households", async () => {
    const { useCases, registerUser, clock } = inventoryFixture();
    const alice = (await registerUser("Alice")).user;
    const bob = (await registerUser("Bob")).user;
    const home = await useCases.createHousehold.execute({ userId: alice.id, name: " Home " });
    expect(home).to.deep.include({ name: "Home", ownerId: alice.id });
    expect(home.createdAt).to.be.instanceOf(Date);
    clock.advance(1000);
    const cabin = await useCases.createHousehold.execute({ userId: alice.id, name: "Cabin" });
    await useCases.createHousehold.execute({ userId: bob.id, name: "Bob's" });
    expect((await useCases.listHouseholds.execute({ userId: alice.id })).map((h) => h.id)).to.deep.equal([
      home.id,
      cabin.id,
    ]);
    expect(Object.keys(home).sort()).to.deep.equal(["createdAt", "id", "name", "ownerId", "timeZone"]);
  });

  it("returns the detail with members ordered by joinedAt", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const detail = await useCases.getHousehold.execute({ userId: member.id, householdId: household.id });
    expect(detail.members.map((m) => [m.userId, m.role, m.name, m.email])).to.deep.equal([
      [owner.id, "OWNER", owner.name, owner.email],
      [member.id, "MEMBER", member.name, member.email],
    ]);
  });

  it("lets only the owner rename and delete", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    await expectRejection(
      useCases.updateHousehold.execute({ userId: member.id, householdId: household.id, name: "X" }),
      "NOT_HOUSEHOLD_OWNER",
    );
    expect(
      await useCases.updateHousehold.execute({ userId: owner.id, householdId: household.id, name: "Flat" }),
    ).to.include({ name: "Flat" });
    await expectRejection(
      useCases.deleteHousehold.execute({ userId: member.id, householdId: household.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    expect(await useCases.deleteHousehold.execute({ userId: owner.id, householdId: household.id })).to.have.property(
      "message",
    );
    expect(await useCases.listHouseholds.execute({ userId: member.id })).to.deep.equal([]);
  });

  it("deletes freezers, compartments, invites and memberships with the household", async () => {
    const { useCases, householdWithMember, store } = inventoryFixture();
    const { owner, household } = await householdWithMember();
    const freezer = await useCases.createFreezer.execute({
      userId: owner.id,
      householdId: household.id,
      name: "Chest",
    });
    await useCases.createCompartment.execute({
      userId: owner.id,
      householdId: household.id,
      freezerId: freezer.id,
      name: "Top",
    });
    await useCases.createInvite.execute({ userId: owner.id, householdId: household.id });
    await useCases.deleteHousehold.execute({ userId: owner.id, householdId: household.id });
    expect([store.freezers.size, store.compartments.size, store.invites.size, store.memberships.size]).to.deep.equal([
      0, 0, 0, 0,
    ]);
  });
});
