import type { RequestHandler } from "express";
import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import type { Membership } from "../../../domain/inventory/household.js";
import { currentUserId } from "./authenticate.js";

/**
 * Express guards for `/households/:hid/...`. They run after authentication and after
 * the path ids were validated, before the body is, and put the caller's Membership in
 * `res.locals.membership`.
 */
export interface HouseholdGuards {
  /** Any member of household `:hid` (403 otherwise, also for a household that does not exist). */
  member: RequestHandler;
  /** The owner of household `:hid` (403 for other members and non-members). */
  owner: RequestHandler;
}

export function createHouseholdGuards(access: HouseholdAccess): HouseholdGuards {
  const guard =
    (check: (householdId: string, userId: string) => Promise<Membership>): RequestHandler =>
    async (req, res, next) => {
      const householdId = String(req.params.hid);
      res.locals.membership = await check(householdId, currentUserId(res));
      next();
    };
  return {
    member: guard((householdId, userId) => access.requireMember(householdId, userId)),
    owner: guard((householdId, userId) => access.requireOwner(householdId, userId)),
  };
}

export function currentMembership(res: { locals: Record<string, unknown> }): Membership {
  return res.locals.membership as Membership;
}
