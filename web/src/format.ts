import { locale, type MessageKey } from "./i18n/index.js";

const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
/** Sorting names as the app's language does ("Hähnchen" before "Himbeeren" in German). */
export const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });

/**
 * The family's time zone: the household's when the server names one, else the browser's. Every
 * "today" the app shows or counts is a calendar day there, never the UTC day.
 */
let familyZone: string | undefined;

export function setFamilyTimeZone(timeZone: string | undefined): void {
  try {
    // An unknown zone name throws; the browser's zone is the better guess then.
    familyZone = timeZone ? new Intl.DateTimeFormat("en", { timeZone }).resolvedOptions().timeZone : undefined;
  } catch {
    familyZone = undefined;
  }
}

/** The browser's IANA time zone, which a new household is created with. */
export function browserTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

/** "YYYY-MM-DD" of the calendar day `instant` falls on in the family's time zone. */
export function localDay(instant: number = Date.now()): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: familyZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(new Date(instant));
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** The calendar day `days` after a "YYYY-MM-DD" day. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

/** The day an instant (a join, an archive) fell on for the family, formatted. */
export function formatDay(iso: string | null): string {
  return iso ? formatDate(`${localDay(new Date(iso).getTime())}T00:00:00Z`) : "";
}
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

/**
 * Whole days from the family's today to a stored calendar date (kept as its UTC midnight);
 * negative once it has passed.
 */
export function daysUntil(iso: string, now: number = Date.now()): number {
  return Math.round(
    (Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) - Date.parse(`${localDay(now)}T00:00:00Z`)) / 86400000,
  );
}

/** The YYYY-MM-DD an <input type="date"> shows for a stored date. */
export function dateInputValue(iso: string | null): string {
  return iso ? iso.slice(0, 10) : "";
}

/** What separates thousands and the fraction in `numberLocale`'s numbers ("." and "," in de-DE). */
function separators(numberLocale: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(numberLocale).formatToParts(12345.5);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? "";
  return { group: part("group"), decimal: part("decimal") || "." };
}

const ownSeparators = separators(locale);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A quantity as typed, in the locale the app writes numbers in (`numberLocale`, the browser's).
 * A number grouped the way the app shows it is read that way: "1.000" and "1.250,5" in German,
 * "1,000" in English, since a person types back what they read. Anything else takes a comma or
 * a point as the decimal separator, whatever the language, so "1,5", "1.5" and "0.250" are never
 * fifteen or two hundred and fifty. NaN when it is no number.
 */
export function parseDecimal(input: string, numberLocale: string = locale): number {
  // Whitespace also covers the no-break spaces some locales (fr, de-AT) group thousands with.
  const compact = input.trim().replace(/\s/g, "");
  const { group, decimal } = numberLocale === locale ? ownSeparators : separators(numberLocale);
  const grouping = group.trim();
  if (grouping) {
    const grouped = new RegExp(`^[1-9]\\d{0,2}(?:${escapeRegExp(grouping)}\\d{3})+(?:${escapeRegExp(decimal)}\\d+)?$`);
    if (grouped.test(compact)) return Number(compact.split(grouping).join("").replace(decimal, "."));
  }
  if (!/^\d+([.,]\d+)?$|^[.,]\d+$/.test(compact)) return Number.NaN;
  return Number(compact.replace(",", "."));
}

/** A quantity for an input field, with the language's decimal separator and no grouping ("1,5"). */
export function decimalInputValue(value: number): string {
  return String(value).replace(".", ownSeparators.decimal);
}

/** The quantity from which the app asks "is that right?" before saving. */
export const UNLIKELY_QUANTITY = 1000;
/** Best-before dates more than this many years ahead are probably a typo. */
const UNLIKELY_YEARS = 3;

/** Sentences about values that are possible but probably typos; empty when all look fine. */
export function unlikelyValues(values: { quantity?: number; expiresAt?: string }): MessageKey[] {
  const reasons: MessageKey[] = [];
  if (values.quantity !== undefined && values.quantity >= UNLIKELY_QUANTITY) reasons.push("unlikely.quantity");
  if (values.expiresAt) {
    const today = localDay();
    if (values.expiresAt < today) reasons.push("unlikely.past");
    else if (values.expiresAt > addDays(today, UNLIKELY_YEARS * 366)) reasons.push("unlikely.future");
  }
  return reasons;
}
