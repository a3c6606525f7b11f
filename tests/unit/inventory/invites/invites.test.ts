import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("invites: create, list, revoke, accept", () => {
  it("creates a URL-safe code of at least 128 bits valid for 7 days", async () => {
    const { useCases, householdWithMember, clock } = inventoryFixture();
    const { owner, household } = await householdWithMember();
    const invite = await useCases.createInvite.execute({ userId: owner.id, householdId: household.id });
    expect(Object.keys(invite).sort()).to.deep.equal(["code", "createdAt", "expiresAt", "householdId", "id"]);
    expect(invite.code).to.match(/^[A-Za-z0-9_-]{22,}$/);
    expect(invite.expiresAt.getTime() - clock.now().getTime()).to.equal(7 * 24 * 3600 * 1000);
  });

  it("lists active invites for the owner only, and revokes", async () => {
    const { useCases, householdWithMember, clock } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const first = await useCases.createInvite.execute({ userId: owner.id, householdId: household.id });
    await expectRejection(
      useCases.createInvite.execute({ userId: member.id, householdId: household.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    await expectRejection(
      useCases.listInvites.execute({ userId: member.id, householdId: household.id }),
      "NOT_HOUSEHOLD_OWNER",
    );
    expect(
      (await useCases.listInvites.execute({ userId: owner.id, householdId: household.id })).map((i) => i.id),
    ).to.deep.equal([first.id]);
    await useCases.revokeInvite.execute({ userId: owner.id, householdId: household.id, inviteId: first.id });
    await expectRejection(
      useCases.revokeInvite.execute({ userId: owner.id, householdId: household.id, inviteId: first.id }),
      "INVITE_NOT_FOUND",
    );
    const second = await useCases.createInvite.execute({ userId: owner.id, householdId: household.id });
    clock.advance(7 * 24 * 3600 * 1000 + 1);
    expect(await useCases.listInvites.execute({ userId: owner.id, householdId: household.id })).to.deep.equal([]);
    expect(second).to.have.property("code");
  });

  it("joins once: 404 unknown, 409 already a member, 410 used or expired", async () => {
    const { useCases, householdWithMember, registerUser, clock } = inventoryFixture();
    const { owner, member, household } = await householdWithMember();
    const newcomer = (await registerUser("New")).user;
    const late = (await registerUser("Late")).user;
    const invite = await useCases.createInvite.execute({ userId: owner.id, householdId: household.id });
    await expectRejection(useCases.acceptInvite.execute({ userId: newcomer.id, code: "nope" }), "INVITE_NOT_FOUND");
    await expectRejection(useCases.acceptInvite.execute({ userId: member.id, code: invite.code }), "ALREADY_MEMBER");
    const joined = await useCases.acceptInvite.execute({ userId: newcomer.id, code: invite.code });
    expect(joined).to.deep.include({ id: household.id, ownerId: owner.id });
    expect(await useCases.access.requireMember(household.id, newcomer.id)).to.include({ role: "MEMBER" });
    await expectRejection(useCases.acceptInvite.execute({ userId: late.id, code: invite.code }), "INVITE_GONE");
    const expiring = await useCases.createInvite.execute({ userId: owner.id, householdId: household.id });
    clock.advance(7 * 24 * 3600 * 1000);
    await expectRejection(useCases.acceptInvite.execute({ userId: late.id, code: expiring.code }), "INVITE_GONE");
  });
});
