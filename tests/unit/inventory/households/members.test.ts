import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("members: remove, leave, transfer", () => {
  it("removes a member but never the owner", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner, member, outsider, household } = await householdWithMember();
    await expectRejection(
      useCases.removeMember.execute({ userId: owner.id, householdId: household.id, memberUserId: owner.id }),
      "CANNOT_REMOVE_OWNER",
    );
    await expectRejection(
      useCases.removeMember.execute({ userId: owner.id, householdId: household.id, memberUserId: outsider.id }),
      "MEMBER_NOT_FOUND",
    );
    await expectRejection(
      useCases.removeMember.execute({ userId: member.id, householdId: household.id, memberUserId: owner.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    expect(
      await useCases.removeMember.execute({ userId: owner.id, householdId: household.id, memberUserId: member.id }),
    ).to.have.property("message");
    await expectRejection(useCases.access.requireMember(household.id, member.id), "NOT_HOUSEHOLD_MEMBER");
  });

  it("lets a member leave but not the owner", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    await expectRejection(
      useCases.leaveHousehold.execute({ userId: owner.id, householdId: household.id }),
      "OWNER_CANNOT_LEAVE",
    );
    expect(await useCases.leaveHousehold.execute({ userId: member.id, householdId: household.id })).to.have.property(
      "message",
    );
    await expectRejection(
      useCases.leaveHousehold.execute({ userId: member.id, householdId: household.id }),
      "NOT_HOUSEHOLD_MEMBER",
    );
  });

  it("transfers ownership to a member; the previous owner stays as MEMBER", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner, member, outsider, household } = await householdWithMember();
    await expectRejection(
      useCases.transferOwnership.execute({ userId: owner.id, householdId: household.id, newOwnerId: outsider.id }),
      "INVALID_TRANSFER_TARGET",
    );
    await expectRejection(
      useCases.transferOwnership.execute({ userId: owner.id, householdId: household.id, newOwnerId: owner.id }),
      "INVALID_TRANSFER_TARGET",
    );
    await expectRejection(
      useCases.transferOwnership.execute({ userId: member.id, householdId: household.id, newOwnerId: member.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    const result = await useCases.transferOwnership.execute({
      userId: owner.id,
      householdId: household.id,
      newOwnerId: member.id,
    });
    expect(result.ownerId).to.equal(member.id);
    const detail = await useCases.getHousehold.execute({ userId: owner.id, householdId: household.id });
    expect(detail.members.map((m) => [m.userId, m.role])).to.deep.equal([
      [owner.id, "MEMBER"],
      [member.id, "OWNER"],
    ]);
    expect(detail.ownerId).to.equal(member.id);
  });
});
