import type { HouseholdRepository } from "../../../ports/household-repository.js";
import type { HouseholdTimeZones } from "../../../ports/household-time-zones.js";

/** Households' time zones read from the household repository. */
export function householdTimeZones(households: Pick<HouseholdRepository, "findById">): HouseholdTimeZones {
  return {
    timeZoneOf: async (householdId) => (await households.findById(householdId))?.timeZone,
  };
}
