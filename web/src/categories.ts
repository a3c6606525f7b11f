/**
 * Categories, units and "frozen for": what the list, the add form and the item screen share.
 * Categories are loaded per household and reloaded on every live event, so a rename by the
 * owner shows on every member's phone.
 */
import { useEffect, useState } from "preact/hooks";
import { api, type Category, type ItemUnit } from "./api.js";
import { formatNumber, localDay } from "./format.js";
import { language, type MessageKey, t } from "./i18n/index.js";
import { useAppState } from "./store.js";

let cached: { householdId: string; categories: Category[] } | null = null;

/** The household's categories (the last ones loaded while offline; none before the first load). */
export function useCategories(): Category[] {
  const { householdId, liveVersion, online } = useAppState();
  const [categories, setCategories] = useState<Category[]>(
    cached && cached.householdId === householdId ? cached.categories : [],
  );
  useEffect(() => {
    if (!householdId) return;
    let current = true;
    api
      .categories(householdId)
      .then((loaded) => {
        cached = { householdId, categories: loaded };
        if (current) setCategories(loaded);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [householdId, liveVersion, online]);
  return categories;
}

/** A default category in the reader's language; one the owner named, as named. */
export function categoryLabel(category: Category): string {
  return category.key ? t(`category.${category.key}` as MessageKey) : category.name;
}

/** The label of a category id among `categories` (null: none; unknown: it was removed). */
export function categoryName(categories: Category[], id: string | null): string | null {
  if (id === null) return null;
  const category = categories.find((candidate) => candidate.id === id);
  return category ? categoryLabel(category) : null;
}

/** The singular of the units named by a word; symbols (g, kg, ml, l) read the same for one. */
const SINGULAR_UNITS: Partial<Record<ItemUnit, MessageKey>> = {
  piece: "unit.piece.one",
  portion: "unit.portion.one",
  bag: "unit.bag.one",
};
// The words are the catalogue's, so its language decides what counts as one; rounded as
// formatNumber rounds, so a quantity shown as "1" is never followed by a plural.
const pluralRules = new Intl.PluralRules(language, { maximumFractionDigits: 2 });

/** "1.5 kg", "3 portions", "1 portion", "2 pcs". */
export function formatAmount(quantity: number, unit: ItemUnit): string {
  const singular = SINGULAR_UNITS[unit];
  const word = singular && pluralRules.select(quantity) === "one" ? t(singular) : t(`unit.${unit}` as MessageKey);
  return t("item.amount", { quantity: formatNumber(quantity), unit: word });
}

/** Units counted one by one, which the list's −1 takes out; the rest are weights and volumes. */
export function isCounted(unit: ItemUnit): boolean {
  return unit === "piece" || unit === "portion" || unit === "bag";
}

/** The unit's name for pickers ("kilograms (kg)"). */
export function unitName(unit: ItemUnit): string {
  return t(`unit.name.${unit}` as MessageKey);
}

/** "frozen 3 weeks ago", counted in the household's calendar days. */
export function frozenFor(storedAt: string | null, now: number = Date.now()): string | null {
  if (!storedAt) return null;
  // A date the app set is stored as that day's UTC midnight (as best-before dates are): it is
  // that calendar day. Any other moment (the API's default, now) is a day in the family's zone.
  const day = storedAt.endsWith("T00:00:00.000Z") ? storedAt.slice(0, 10) : localDay(Date.parse(storedAt));
  const days = Math.round((Date.parse(`${localDay(now)}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86400000);
  if (days <= 0) return t("frozen.today");
  if (days === 1) return t("frozen.day");
  if (days < 14) return t("frozen.days", { count: days });
  if (days < 60) return t("frozen.weeks", { count: Math.floor(days / 7) });
  if (days < 365) return t("frozen.months", { count: Math.floor(days / 30) });
  const years = Math.floor(days / 365);
  return years === 1 ? t("frozen.year") : t("frozen.years", { count: years });
}
