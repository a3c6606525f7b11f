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
