import type { Membership } from "../../domain/inventory/household.js";
import { NotHouseholdMemberError, NotHouseholdOwnerError } from "../../domain/inventory/errors.js";
import type { HouseholdRepository } from "../../ports/household-repository.js";

/**
 * The membership rules every household route shares. A household that does not exist
 * and one the caller does not belong to look the same (403), so ids reveal nothing.
 */
export class HouseholdAccess {
  constructor(private readonly households: Pick<HouseholdRepository, "findMembership">) {}

  async requireMember(householdId: string, userId: string): Promise<Membership> {
    const membership = await this.households.findMembership(householdId, userId);
    if (!membership) throw new NotHouseholdMemberError();
    return membership;
  }

  async requireOwner(householdId: string, userId: string): Promise<Membership> {
    const membership = await this.requireMember(householdId, userId);
    if (membership.role !== "OWNER") throw new NotHouseholdOwnerError();
    return membership;
  }
}
