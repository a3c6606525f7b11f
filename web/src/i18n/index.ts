import { de } from "./de.js";
import { en, type MessageKey } from "./en.js";

/**
 * Every user-visible text of the app, per language. A translation is one file exporting a
 * `Catalogue` (the compiler insists that it names every key of the English one).
 */
export type Catalogue = Record<MessageKey, string>;

const CATALOGUES: Record<string, Catalogue> = { en, de };

function pickLanguage(): string {
  const wanted =
    typeof navigator === "undefined"
      ? ["en"]
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  for (const tag of wanted) {
    const language = tag.toLowerCase().split("-")[0] ?? "en";
    if (language in CATALOGUES) return language;
  }
  return "en";
}

export const language = pickLanguage();
/** The browser's own locale (region included) drives number and date formats. */
export const locale = typeof navigator === "undefined" ? "en" : navigator.language || language;
const catalogue: Catalogue = CATALOGUES[language] ?? en;

/** The message `key` with `{name}` placeholders filled in from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export type { MessageKey };
