/** Whether `zone` is a time zone this runtime knows (IANA names like Europe/Berlin, or UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    // RangeError: not a zone Intl knows.
    return false;
  }
}

/**
 * The first moment after the local calendar day `days` days from the one `at` falls on in
 * `timeZone`, as the UTC midnight that ends it: expiry dates are calendar dates stored at UTC
 * midnight, so "expires on or before that local day" is `expiresAt` before this.
 */
export function endOfLocalDay(at: Date, timeZone: string | undefined, days = 0): Date {
  const [year, month, day] = localTime(at, timeZone).date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days + 1));
}

/** A day in milliseconds (UTC days: no daylight-saving shift). */
export const DAY_MS = 86_400_000;

/** A moment as a wall clock in a time zone shows it. */
export interface LocalTime {
  /** `YYYY-MM-DD`. */
  date: string;
  /** Minutes since local midnight. */
  minutes: number;
  /** Seconds past the minute. */
  seconds: number;
}

/** The local date and time of `at` in `timeZone` (the system zone when undefined). */
export function localTime(at: Date, timeZone: string | undefined): LocalTime {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? "00";
  return {
    date: `${part("year")}-${part("month")}-${part("day")}`,
    minutes: Number(part("hour")) * 60 + Number(part("minute")),
    seconds: Number(part("second")),
  };
}
