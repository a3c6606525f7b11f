export type HouseholdRole = "OWNER" | "MEMBER";

export const HOUSEHOLD_ROLES: readonly HouseholdRole[] = ["OWNER", "MEMBER"];

export interface Household {
  id: string;
  name: string;
  ownerId: string;
  /** IANA time zone of the family: its calendar days decide "expires today" and reminders. */
  timeZone: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A user's place in a household. Exactly one membership per household has role OWNER. */
export interface Membership {
  id: string;
  householdId: string;
  userId: string;
  role: HouseholdRole;
  joinedAt: Date;
}

/** A membership with the member's current name and email, for the household detail. */
export interface MemberProfile extends Membership {
  name: string;
  email: string;
}
