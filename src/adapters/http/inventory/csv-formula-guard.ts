/**
 * Spreadsheet formula injection (CWE-1236) in CSV exports: a spreadsheet opening the file runs a
 * cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a
 * formula, so a name a member typed could run in another member's spreadsheet. An export writes
 * such a cell behind a leading `'` (as OWASP recommends), which spreadsheets show as text; an
 * import strips that `'` again, so a file exported and imported keeps every text as it was.
 *
 * The pair is exact both ways: a text that already starts with `'`s followed by a trigger
 * character gets one more `'` on export, and an import strips exactly one, so `'=x` typed by a
 * member comes back as `'=x`, never as `=x`.
 */

/** Starts with any number of `'` and then a character a spreadsheet reads as a formula. */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;

/** The cell text an export writes for `text`. */
export function neutraliseFormula(text: string): string {
  return FORMULA_LIKE.test(text) ? `'${text}` : text;
}

/** The text an exported cell stands for (the inverse of neutraliseFormula). */
export function restoreFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_LIKE.test(cell.slice(1)) ? cell.slice(1) : cell;
}
