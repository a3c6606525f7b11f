import type { ChangeLogEntry } from "./change-log-entry.js";
import type { Compartment, Freezer } from "./freezer.js";
import type { FreezerItem } from "./freezer-item.js";
import type { BarcodeUnit, RememberedBarcode } from "./barcode.js";
import type { ItemCategory } from "./item-category.js";
import type { ItemUnit } from "./item-unit.js";
import { DomainError } from "../shared/domain-error.js";
import type { ShoppingListEntry, ShoppingListEntryFields } from "./shopping-list.js";
import type { PhotoImages } from "./item-photo.js";

/** An item's photo as an export carries it: the display rendition, which an import decodes again. */
export interface TransferPhoto {
  itemId: string;
  contentType: string;
  image: Uint8Array;
}

/** A photo an import writes, made by the same image pipeline as an upload. */
export interface ImportedPhoto {
  itemId: string;
  images: PhotoImages;
}

/** A freezer as an export lists it, with its compartments. */
export interface TransferFreezer extends Freezer {
  compartments: Compartment[];
}

/** One record of an export, in the order an export writes them. */
export type ExportRecord =
  | { kind: "freezer"; freezer: Freezer }
  | { kind: "compartment"; compartment: Compartment }
  | { kind: "category"; category: ItemCategory }
  | { kind: "item"; item: FreezerItem }
  | { kind: "history"; entry: ChangeLogEntry }
  | { kind: "barcode"; barcode: RememberedBarcode }
  | { kind: "shopping"; entry: ShoppingListEntry }
  | { kind: "photo"; photo: TransferPhoto };

/** A freezer an import file defines (by id, with its name). */
export interface ImportFreezerRow {
  kind: "freezer";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `items[3]` (JSON). */
  row: string;
  id: string;
  name: string;
  description: string | null;
}

export interface ImportCompartmentRow {
  kind: "compartment";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `items[3]` (JSON). */
  row: string;
  id: string;
  freezerId: string;
  name: string;
  position: number;
}

/**
 * A category an import file defines: matched to the household's category of the same id, else
 * of the same name (ignoring case), else created under a new id; items name it by the file's id.
 */
export interface ImportCategoryRow {
  kind: "category";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `items[3]` (JSON). */
  row: string;
  id: string;
  name: string;
  position: number;
}

/**
 * An item of an import file. Its place is named by id (an existing freezer or compartment of
 * the household, or one the file defines) or by name (created when the household has none of that name).
 */
export interface ImportItemRow {
  kind: "item";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `items[3]` (JSON). */
  row: string;
  id: string;
  name: string;
  quantity: number;
  unit: ItemUnit;
  /** A category of the household or of the file, by id; or by name (created when the household has none). */
  categoryId: string | null;
  categoryName: string | null;
  freezerId: string | null;
  freezerName: string | null;
  compartmentId: string | null;
  compartmentName: string | null;
  notes: string | null;
  storedAt: Date | null;
  expiresAt: Date | null;
  archivedAt: Date | null;
  createdAt: Date | null;
  barcode: string | null;
}

/** What the household remembers about a barcode, as a file carries it. */
export interface ImportBarcodeRow {
  kind: "barcode";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `barcodes[3]` (JSON). */
  row: string;
  code: string;
  name: string;
  unit: BarcodeUnit | null;
  categoryId: string | null;
}

/**
 * Most barcode rows one import takes. They are written with the import's last step (on PGlite in
 * one short transaction with its commit point), so their number is bounded here, far above what
 * a family scans.
 */
export const MAX_IMPORTED_BARCODES = 10_000;

/**
 * An entry of the household's shopping list as a file carries it. An import adds it at the end of
 * the list unless the list already holds the same thing to buy (see shoppingEntryKey), under a new
 * id: the file's id is another list's, and entries are known by what they say.
 */
export interface ImportShoppingRow extends ShoppingListEntryFields {
  kind: "shopping";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `shoppingList[3]` (JSON). */
  row: string;
  /** Its place in the exported list: the entries keep this order when they are added. */
  position: number;
}

/** A row the file parser could not read; `message` says why. */
export interface ImportRowProblem {
  kind: "problem";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `items[3]` (JSON). */
  row: string;
  message: string;
}

/** A row an import skips on purpose: history (the change log is the household's own). */
export interface ImportSkippedRow {
  kind: "skipped";
  /** Where the row is in the file: `row 12` (CSV, the header is row 1) or `items[3]` (JSON). */
  row: string;
}

/** The photo of an item the file defines earlier (JSON only); its bytes are checked like an upload's. */
export interface ImportPhotoRow {
  kind: "photo";
  /** Where the row is in the file: `photos[3]`. */
  row: string;
  itemId: string;
  image: Uint8Array;
}

export type ImportRow =
  | ImportFreezerRow
  | ImportCompartmentRow
  | ImportCategoryRow
  | ImportItemRow
  | ImportBarcodeRow
  | ImportShoppingRow
  | ImportRowProblem
  | ImportSkippedRow
  | ImportPhotoRow;

/** What an import changed; a second run of the same file reports all zeros but `unchanged`. */
export interface ImportSummary {
  freezersCreated: number;
  compartmentsCreated: number;
  categoriesCreated: number;
  itemsCreated: number;
  /** Items of the file already in the household (same id): left as they are. */
  itemsUnchanged: number;
  /** Barcodes the household had not remembered; one it remembers keeps what it has. */
  barcodesRemembered: number;
  /** Shopping-list entries added; one the list already holds (same name and unit) is not added again. */
  shoppingEntriesAdded: number;
}

/** Most row problems one answer lists; the message gives the total. */
export const MAX_REPORTED_PROBLEMS = 100;

/** Why an import refuses an id it names: the item, freezer or compartment is another household's. */
export function belongsToAnotherHousehold(kind: "item" | "freezer" | "compartment", id: string): string {
  return `${kind === "item" ? "id" : kind} ${id} belongs to another household`;
}

/** The file has invalid rows; nothing was written. */
export class ImportInvalidError extends DomainError {
  readonly code = "IMPORT_INVALID";
  constructor(problems: { row: string; message: string }[], total: number) {
    super(
      `The import has ${total} invalid row${total === 1 ? "" : "s"}; nothing was imported`,
      problems.map((problem) => ({ path: problem.row, message: problem.message })),
    );
  }
}
