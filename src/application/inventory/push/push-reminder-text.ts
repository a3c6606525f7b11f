import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import type { PushLanguage } from "../../../domain/inventory/push-reminder.js";

/** Items named in one push; the rest are counted. A push payload holds about 4 KB. */
export const PUSH_LISTED = 5;

interface Texts {
  locale: string;
  allExpired(count: number): string;
  useSoon(count: number): string;
  expired(name: string, on: string): string;
  expires(name: string, on: string): string;
  more(count: number): string;
}

const TEXTS: Record<PushLanguage, Texts> = {
  en: {
    locale: "en-GB",
    allExpired: (count) => `${count} freezer item${count === 1 ? " has" : "s have"} expired`,
    useSoon: (count) => `${count} freezer item${count === 1 ? "" : "s"} to use soon`,
    expired: (name, on) => `${name}: expired on ${on}`,
    expires: (name, on) => `${name}: expires on ${on}`,
    more: (count) => `and ${count} more`,
  },
  de: {
    locale: "de-DE",
    allExpired: (count) => (count === 1 ? "1 Gefriergut ist abgelaufen" : `${count} Gefriergüter sind abgelaufen`),
    useSoon: (count) => (count === 1 ? "1 Gefriergut bald verbrauchen" : `${count} Gefriergüter bald verbrauchen`),
    expired: (name, on) => `${name}: abgelaufen am ${on}`,
    expires: (name, on) => `${name}: läuft am ${on} ab`,
    more: (count) => `und ${count} weitere`,
  },
};

/**
 * A member's reminder in the device's language: the title counts the items, the body lists the
 * first ones soonest first. `startOfToday` is the family's today as the UTC midnight expiry dates
 * are stored at: an item whose date is before it has expired.
 */
export function pushReminderText(
  language: PushLanguage,
  items: FreezerItemView[],
  total: number,
  startOfToday: Date,
): { title: string; body: string } {
  const texts = TEXTS[language];
  // Expiry dates are calendar dates stored at UTC midnight: shown in UTC they keep their day.
  const format = new Intl.DateTimeFormat(texts.locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const expired = (item: FreezerItemView) =>
    item.expiresAt !== null && item.expiresAt.getTime() < startOfToday.getTime();
  const lines = items.map((item) => {
    const on = format.format(item.expiresAt as Date);
    return expired(item) ? texts.expired(item.name, on) : texts.expires(item.name, on);
  });
  if (total > items.length) lines.push(texts.more(total - items.length));
  const allExpired = items.length === total && items.every(expired);
  return { title: allExpired ? texts.allExpired(total) : texts.useSoon(total), body: lines.join("\n") };
}
