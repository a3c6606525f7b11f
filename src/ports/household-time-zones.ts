/** Where use cases learn a household's time zone (its family's calendar days). */
export interface HouseholdTimeZones {
  /** The household's IANA time zone; undefined when there is no such household. */
  timeZoneOf(householdId: string): Promise<string | undefined>;
}
