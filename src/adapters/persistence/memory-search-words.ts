import { searchTerms } from "../../domain/inventory/freezer-item.js";

// The in-memory stand-in for the database's search folding (`hearth_search_text`: unaccent,
// lower-case, punctuation as spaces). It lives with the in-memory adapter because it copies
// SQL behaviour; the SQL adapter leaves the folding to PostgreSQL.

/** Letters unaccent spells out rather than strips (it maps them; NFKD leaves them alone). */
const EXTRA_FOLDS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
  ŋ: "n",
  // Modifier-letter apostrophes and primes: unaccent turns them into ASCII punctuation.
  ʹ: " ",
  ʺ: " ",
  ʻ: " ",
  ʼ: " ",
  ʽ: " ",
  ˈ: " ",
};
const EXTRA_FOLDABLE = new RegExp(`[${Object.keys(EXTRA_FOLDS).join("")}]`, "gu");

const LATIN_OR_GREEK = /[\p{Script=Latin}\p{Script=Greek}]/u;
/** The combining accents of Latin, Greek and Cyrillic letters (U+0300–U+036F). */
const COMBINING_ACCENTS = /[\u0300-\u036f]/gu;
/** Fullwidth and halfwidth forms and vulgar fractions, which unaccent spells out (１ → 1, ½ → 1/2). */
const COMPATIBILITY_FORMS = /[\u00bc-\u00be\u2150-\u215f\uff00-\uffef]/u;

/**
 * One character as PostgreSQL's `unaccent` rules treat it: Latin and Greek letters lose
 * their accents and compatibility forms (ﬁ → fi, fullwidth Ｆ → F, Ⅻ → XII), fullwidth
 * digits and fractions are spelled out, stray combining accents go, and of Cyrillic only Ё
 * is folded. The marks of other scripts belong to their letter and stay (Hangul, kana with
 * voicing marks, Devanagari vowel signs, й), or names in those scripts could never be found.
 */
function foldCharacter(character: string): string {
  if (LATIN_OR_GREEK.test(character)) return character.normalize("NFKD").replace(COMBINING_ACCENTS, "");
  if (character === "Ё") return "Е";
  if (character === "ё") return "е";
  if (COMPATIBILITY_FORMS.test(character)) return character.normalize("NFKC");
  return character.replace(COMBINING_ACCENTS, "");
}

/** ASCII punctuation, which `hearth_search_text` turns into spaces (migration 20261122000003). */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/gu;

/**
 * Text as the database's `hearth_search_text` folds it: accents stripped as `unaccent` strips
 * them, lower-cased, ASCII punctuation as spaces, whitespace kept. Infix search looks for the
 * folded search word inside this, and sorting by name compares it, on either side.
 */
export function foldSearchText(text: string): string {
  let folded = "";
  for (const character of text.normalize("NFC")) folded += foldCharacter(character);
  return folded
    .toLowerCase()
    .replace(EXTRA_FOLDABLE, (letter) => EXTRA_FOLDS[letter] ?? letter)
    .replace(ASCII_PUNCTUATION, " ");
}

/**
 * Splits text into folded search words: {@link foldSearchText}, split like `searchTerms`.
 * This is the in-memory adapter's stand-in for the database's `hearth_search_text` followed
 * by the text-search parser; names and searches go through the same rules on either side.
 */
export function searchWords(text: string): string[] {
  return searchTerms(foldSearchText(text));
}
