import { locale } from "./i18n/index.js";

const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
const numberFormat = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
const relativeFormat = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });

/**
 * A calendar date such as an expiry date. The API keeps a date as its UTC midnight, so it is
 * shown in UTC: in a zone west of Greenwich local time would show the day before.
 */
export function formatDate(iso: string | null): string {
  return iso ? dateFormat.format(new Date(iso)) : "";
}

export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

/** "2 days ago", "in 3 weeks", "now", in the browser's language. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return relativeFormat.format(0, "second");
}

/** Whole days from today (UTC) to a stored date; negative once it has passed. */
export function daysUntil(iso: string, now: number = Date.now()): number {
  const today = new Date(now);
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((new Date(iso).getTime() - midnight) / 86400000);
}

/** The YYYY-MM-DD an <input type="date"> shows for a stored date. */
export function dateInputValue(iso: string | null): string {
  return iso ? iso.slice(0, 10) : "";
}
