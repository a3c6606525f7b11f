import { type ChangeLogEntry, ITEM_UNITS, type ItemUnit } from "./api.js";
import { categoryName, unitName, type useCategories } from "./categories.js";
import { formatDate, formatNumber, formatRelative } from "./format.js";
import { type MessageKey, t } from "./i18n/index.js";
import { compartmentName, freezerName } from "./store.js";

/** The categories last loaded, for history sentences (outside a component). */
let knownCategories: ReturnType<typeof useCategories> = [];

/** Keeps the household's categories for naming them in history sentences. */
export function rememberCategories(categories: ReturnType<typeof useCategories>): void {
  knownCategories = categories;
}

/** One history entry as a sentence: "Anna moved it from Drawer 1 to Drawer 3, 2 days ago". */
export function historySentence(entry: ChangeLogEntry, now: number = Date.now()): string {
  const who = entry.changedBy.name;
  const when = formatRelative(entry.changedAt, now);
  const value = (raw: string | null): string => {
    if (raw === null || raw === "") return t("history.nothing");
    switch (entry.fieldName) {
      case "compartmentId":
        return compartmentName(raw) ?? t("history.unknownPlace");
      case "freezerId":
        return freezerName(raw) ?? t("history.unknownPlace");
      case "expiresAt":
      case "storedAt":
        return formatDate(raw);
      case "quantity":
        return formatNumber(Number(raw));
      case "unit":
        return (ITEM_UNITS as readonly string[]).includes(raw) ? unitName(raw as ItemUnit) : raw;
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
  return t(key, { who, when, field: entry.fieldName, from: value(entry.oldValue), to: value(entry.newValue) });
}
