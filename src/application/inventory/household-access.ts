import type { Membership } from "../../domain/inventory/household.js";
import { NotHouseholdMemberError, NotHouseholdOwnerError } from "../../domain/inventory/errors.js";
import type { MembershipSource } from "../../ports/household-repository.js";

/**
 * The one access policy of the inventory: every use case that touches a household asks it
 * first, so no caller (HTTP, the engine, the CLI) can skip the check, and a request costs
 * one membership query. A household that does not exist and one the caller does not belong
 * to look the same (403), so ids reveal nothing.
 */
export class HouseholdAccess {
  constructor(private readonly households: MembershipSource) {}

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

/**
 * A use case on one household: the ports it needs and the access policy its execute() asks
 * first. Subclasses name their ports, e.g. `HouseholdUseCase<Pick<InventoryPorts, "freezers">>`.
 */
export abstract class HouseholdUseCase<Ports> {
  constructor(
    protected readonly ports: Ports,
    protected readonly access: HouseholdAccess,
  ) {}
}
