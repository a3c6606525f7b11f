import type { Household, MemberProfile } from "../../../domain/inventory/household.js";

/** Household as the API shows it. */
export interface HouseholdView {
  id: string;
  name: string;
  ownerId: string;
  timeZone: string;
  createdAt: Date;
}

export interface HouseholdDetailView extends HouseholdView {
  members: { id: string; userId: string; name: string; email: string; role: MemberProfile["role"]; joinedAt: Date }[];
}

export function viewHousehold(household: Household): HouseholdView {
  return {
    id: household.id,
    name: household.name,
    ownerId: household.ownerId,
    timeZone: household.timeZone,
    createdAt: household.createdAt,
  };
}

export function viewHouseholdDetail(household: Household, members: MemberProfile[]): HouseholdDetailView {
  return {
    ...viewHousehold(household),
    members: members.map((member) => ({
      id: member.id,
      userId: member.userId,
      name: member.name,
      email: member.email,
      role: member.role,
      joinedAt: member.joinedAt,
    })),
  };
}
