import { type ChangeLogEntry, ITEM_UNITS, type ItemUnit } from "./api.js";
import { categoryName, formatAmount, unitName, type useCategories } from "./categories.js";
import { formatDate, formatNumber, formatRelative } from "./format.js";
import { type MessageKey, t } from "./i18n/index.js";
import { compartmentName, freezerName } from "./store.js";

/** The categories last loaded, for history sentences (outside a component). */
let knownCategories: ReturnType<typeof useCategories> = [];

/** Keeps the household's categories for naming them in history sentences. */
export function rememberCategories(categories: ReturnType<typeof useCategories>): void {
  knownCategories = categories;
}

/** The unit an item had before and after one history entry. */
export interface EntryUnits {
  before: ItemUnit;
  after: ItemUnit;
}

const isUnit = (value: string | null): value is ItemUnit => (ITEM_UNITS as readonly string[]).includes(value ?? "");

/**
 * The unit of each entry's quantities, since an entry keeps the numbers alone: walked back from
 * the unit the item has now through the unit changes, newest first as the API lists them. The
 * entries of one save share their time; a save that changed the unit and the quantity has the
 * old quantity in the old unit.
 */
export function unitsOfEntries(entries: readonly ChangeLogEntry[], current: ItemUnit): Map<string, EntryUnits> {
  const units = new Map<string, EntryUnits>();
  let after = current;
  for (let start = 0; start < entries.length; ) {
    let end = start;
    while (end < entries.length && entries[end]?.changedAt === entries[start]?.changedAt) end += 1;
    const save = entries.slice(start, end);
    const unitChange = save.find((entry) => entry.fieldName === "unit");
    const before = unitChange && isUnit(unitChange.oldValue) ? unitChange.oldValue : after;
    for (const entry of save) units.set(entry.id, { before, after });
    after = before;
    start = end;
  }
  return units;
}

/** One history entry as a sentence: "Anna moved it from Drawer 1 to Drawer 3, 2 days ago". */
export function historySentence(entry: ChangeLogEntry, now: number = Date.now(), units?: EntryUnits): string {
  const who = entry.changedBy.name;
  const when = formatRelative(entry.changedAt, now);
  const value = (raw: string | null, side: keyof EntryUnits): string => {
    if (raw === null || raw === "") return t("history.nothing");
    switch (entry.fieldName) {
      case "compartmentId":
        return compartmentName(raw) ?? t("history.unknownPlace");
      case "freezerId":
        return freezerName(raw) ?? t("history.unknownPlace");
      case "expiresAt":
      case "storedAt":
        return formatDate(raw);
      case "quantity": {
        // Pieces read as plain numbers, as the item's summary has them.
        const unit = units?.[side] ?? "piece";
        return unit === "piece" ? formatNumber(Number(raw)) : formatAmount(Number(raw), unit);
      }
      case "unit":
        return isUnit(raw) ? unitName(raw) : raw;
      case "categoryId":
        return categoryName(knownCategories, raw) ?? t("history.unknownCategory");
      default:
        return raw;
    }
  };
  const added = (entry.oldValue ?? "") === "" && (entry.newValue ?? "") !== "";
  const removed = (entry.oldValue ?? "") !== "" && (entry.newValue ?? "") === "";
  /** A field that may be empty: "added …" and "removed …" read better than "from nothing". */
  const optional = (whenAdded: MessageKey, whenRemoved: MessageKey, otherwise: MessageKey): MessageKey =>
    added ? whenAdded : removed ? whenRemoved : otherwise;
  const keys: Record<string, MessageKey> = {
    compartmentId: "history.moved",
    freezerId: "history.moved",
    quantity: "history.quantity",
    name: "history.renamed",
    expiresAt: optional("history.expiryAdded", "history.expiryRemoved", "history.expiry"),
    storedAt: "history.stored",
    notes: optional("history.notesAdded", "history.notesRemoved", "history.notes"),
    barcode: optional("history.barcodeAdded", "history.barcodeRemoved", "history.barcode"),
    unit: "history.unit",
    categoryId: "history.category",
    deletedAt: entry.newValue ? "history.archived" : "history.restored",
    photo: entry.newValue ? (entry.oldValue ? "history.photoChanged" : "history.photoAdded") : "history.photoRemoved",
  };
  const key = keys[entry.fieldName] ?? "history.changed";
  return t(key, {
    who,
    when,
    field: entry.fieldName,
    from: value(entry.oldValue, "before"),
    to: value(entry.newValue, "after"),
  });
}
