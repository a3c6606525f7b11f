import { expect } from "chai";
import { expectRejection, inventoryFixture } from "../inventory-fixture.js";

describe("household access", () => {
  it("tells members, owners and outsiders apart; an unknown household looks like a foreign one", async () => {
    const { useCases, householdWithMember } = inventoryFixture();
    const { owner, member, outsider, household } = await householdWithMember();
    expect(await useCases.access.requireOwner(household.id, owner.id)).to.include({ role: "OWNER" });
    expect(await useCases.access.requireMember(household.id, member.id)).to.include({ role: "MEMBER" });
    await expectRejection(useCases.access.requireOwner(household.id, member.id), "NOT_HOUSEHOLD_OWNER");
    await expectRejection(useCases.access.requireMember(household.id, outsider.id), "NOT_HOUSEHOLD_MEMBER");
    await expectRejection(useCases.access.requireMember("doesnotexist1", owner.id), "NOT_HOUSEHOLD_MEMBER");
  });
});
