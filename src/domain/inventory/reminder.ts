import type { LocalTime } from "../shared/local-time.js";
/** A household's expiry-reminder settings, and the local date the last reminder went out. */
export interface ReminderSettings {
  householdId: string;
  enabled: boolean;
  /** Items expiring within this many days are listed (expired ones always are). */
  daysAhead: number;
  /** Local time of day, `HH:MM` in the server's TZ. */
  timeOfDay: string;
  /** The ntfy topic (or the notification service's channel) to send to; null: the service's default. */
  channel: string | null;
  /** `YYYY-MM-DD` in TZ, or null when none was sent yet. */
  lastSentOn: string | null;
  updatedAt: Date;
}

export const DEFAULT_REMINDER_DAYS_AHEAD = 3;
export const DEFAULT_REMINDER_TIME = "18:00";

/** The settings of a household that never saved any. */
export function defaultReminderSettings(householdId: string, now: Date): ReminderSettings {
  return {
    householdId,
    enabled: false,
    daysAhead: DEFAULT_REMINDER_DAYS_AHEAD,
    timeOfDay: DEFAULT_REMINDER_TIME,
    channel: null,
    lastSentOn: null,
    updatedAt: now,
  };
}

export function minutesOfDay(timeOfDay: string): number {
  const [hours, minutes] = timeOfDay.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * Whether today's reminder is due: enabled, the set time has passed today, and none went
 * out today. A reminder missed while Hearth was down is therefore sent once when it comes
 * back, if that is still the same day; a day missed entirely is not made up.
 */
export function isReminderDue(
  settings: Pick<ReminderSettings, "enabled" | "lastSentOn" | "timeOfDay">,
  now: Pick<LocalTime, "date" | "minutes">,
): boolean {
  return settings.enabled && settings.lastSentOn !== now.date && now.minutes >= minutesOfDay(settings.timeOfDay);
}

/**
 * How long a claimed reminder may stay unsent before another check (in this process or
 * another) takes the claim over: longer than a send with all its retries takes (ntfy: three
 * attempts of 10 s with backoff), short enough that a crash costs minutes, not the day.
 */
export const REMINDER_CLAIM_MS = 2 * 60_000;

/**
 * The key a household's reminder for one local day carries (`hearth-reminder-<day>-<household>`),
 * the same on every attempt: a notification service that knows it (ntfy's sequence ID) shows a
 * repeat after a crash as the same notification. Letters, digits, `-` and `_` only, at most 64.
 */
export function reminderKey(householdId: string, date: string): string {
  return `hearth-reminder-${date}-${householdId}`.replace(/[^-_A-Za-z0-9]/g, "_").slice(0, 64);
}
