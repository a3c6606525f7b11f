import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("current user", () => {
  it("gets and renames the signed-in user", async () => {
    const { useCases, registerUser } = inventoryFixture();
    const { user } = await registerUser("Eve");
    expect(await useCases.getCurrentUser.execute({ userId: user.id })).to.deep.equal({ ...user, role: "admin" });
    const second = await registerUser("Mallory");
    expect(await useCases.getCurrentUser.execute({ userId: second.user.id })).to.include({ role: "member" });
    expect(await useCases.updateCurrentUser.execute({ userId: user.id, name: " Evelyn " })).to.include({
      name: "Evelyn",
    });
    expect(await useCases.updateCurrentUser.execute({ userId: user.id })).to.include({ name: "Evelyn" });
  });

  it("refuses to delete an account that owns a household", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner } = await householdWithMember();
    await expectRejection(useCases.deleteCurrentUser.execute({ userId: owner.id }), "USER_OWNS_HOUSEHOLD");
  });

  it("anonymises a deleted account, ends its memberships and sessions, and frees nothing to log in with", async () => {
    const { useCases, householdWithMember, ports } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const session = await useCases.login.execute({ email: member.email, password: "password123" });
    expect(await useCases.deleteCurrentUser.execute({ userId: member.id })).to.have.property("message");
    const stored = await ports.users.findById(member.id);
    expect(stored?.name).to.equal("Deleted user");
    expect(stored?.email).to.not.equal(member.email);
    expect(stored?.deletedAt).to.be.instanceOf(Date);
    const detail = await useCases.getHousehold.execute({ userId: owner.id, householdId: household.id });
    expect(detail.members.map((m) => m.userId)).to.deep.equal([owner.id]);
    await expectRejection(
      useCases.login.execute({ email: member.email, password: "password123" }),
      "INVALID_CREDENTIALS",
    );
    await expectRejection(
      useCases.refreshTokens.execute({ refreshToken: session.refreshToken }),
      "INVALID_REFRESH_TOKEN",
    );
    await expectRejection(useCases.getCurrentUser.execute({ userId: member.id }), "AUTHENTICATION_REQUIRED");
    await expectRejection(useCases.listHouseholds.execute({ userId: member.id }), "AUTHENTICATION_REQUIRED");
    // The email can be registered again by a new person.
    const again = await useCases.register.execute({ email: member.email, password: "password123", name: "New" });
    expect(again.user.id).to.not.equal(member.id);
  });
});
