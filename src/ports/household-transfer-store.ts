import type { ChangeLogEntry } from "../domain/inventory/change-log-entry.js";
import type { Compartment, Freezer } from "../domain/inventory/freezer.js";
import type { FreezerItem } from "../domain/inventory/freezer-item.js";
import type { ImportedPhoto, TransferFreezer, TransferPhoto } from "../domain/inventory/household-transfer.js";
import type { RememberedBarcode } from "../domain/inventory/barcode.js";
import type { ItemCategory } from "../domain/inventory/item-category.js";
import type { ShoppingListChanger } from "./shopping-list-repository.js";

/** Records an import writes together: the freezers and compartments its items need come first. */
export interface ImportBatch {
  freezers: Freezer[];
  compartments: Compartment[];
  /** Categories the file brought that the household lacked (always under new ids). */
  categories: ItemCategory[];
  items: FreezerItem[];
  /** Barcodes to remember where the household has not remembered the code yet. */
  barcodes: RememberedBarcode[];
  /** The file row that brought each id of the batch, to name it when the id is refused. */
  rows: ReadonlyMap<string, string>;
  /**
   * Photos of the file's items, written only for items this import creates (an item already
   * in the household keeps its own photo, as it keeps its fields); they set the item's photo
   * version to `photoAt`.
   */
  photos?: ImportedPhoto[];
  photoAt?: Date;
}

/** What one import writes. */
export interface ImportWrite {
  householdId: string;
  /**
   * The batches to write, decided against `current`: the household's freezers as they are once
   * the store holds the household's import lock, so a second import of a file finds what the
   * first created instead of creating it again. May throw (ImportInvalidError) to write nothing.
   */
  batches(current: TransferFreezer[], categories: ItemCategory[]): AsyncIterable<ImportBatch>;
  /**
   * What the import adds to the household's shopping list, asked for once every batch is written
   * (null: the file has no entries, and the list is not touched). The change runs at the import's
   * commit point against the list as it is then, under the list's lock (as every list write
   * does): its entries and events are written with the commit, or the import is refused (a
   * DomainError) and nothing of it stays. It returns how many entries it added.
   */
  shoppingList?: () => ShoppingListChanger<number> | null;
}

/** Whole-household reads and the one-transaction import, for export and import. */
export interface HouseholdTransferStore {
  /** The household's freezers with their compartments. */
  freezers(householdId: string): Promise<TransferFreezer[]>;
  /** The household's categories in their order. */
  categories(householdId: string): Promise<ItemCategory[]>;
  /** Items (active and archived) by id, after `afterId`, at most `limit`. */
  itemsAfter(householdId: string, afterId: string | null, limit: number): Promise<FreezerItem[]>;
  /** Change-log entries of the household's items by id, after `afterId`, at most `limit`. */
  historyAfter(householdId: string, afterId: string | null, limit: number): Promise<ChangeLogEntry[]>;
  /** What the household remembers about barcodes, in code order after `afterCode`, at most `limit`. */
  barcodesAfter(householdId: string, afterCode: string | null, limit: number): Promise<RememberedBarcode[]>;
  /** Photos of the household's items (display size), by item id, after `afterItemId`, at most `limit`. */
  photosAfter(householdId: string, afterItemId: string | null, limit: number): Promise<TransferPhoto[]>;
  /** Which of `ids` are items, freezers or compartments of another household. */
  foreignIds(
    householdId: string,
    ids: { items: string[]; freezers: string[]; compartments: string[] },
  ): Promise<string[]>;
  /** Which of `ids` are items the household already has (active or archived): an import leaves them alone. */
  ownItemIds(householdId: string, ids: string[]): Promise<string[]>;
  /**
   * Writes the batches all or nothing (one transaction; chunked, short ones taken back on failure), one import of a household at a time, skipping ids the
   * household already has; returns how many records were new. Rejects with ImportInvalidError,
   * writing nothing, when an id of a batch is another household's (one that household wrote in the
   * meantime), and with NotHouseholdMemberError when the household is gone.
   */
  importAll(write: ImportWrite): Promise<ImportCounts>;
}

/** How many records an import wrote that the household did not have. */
export interface ImportCounts {
  itemsCreated: number;
  freezersCreated: number;
  compartmentsCreated: number;
  categoriesCreated: number;
  barcodesRemembered: number;
  shoppingEntriesAdded: number;
}

export const HOUSEHOLD_TRANSFER_STORE = Symbol("HouseholdTransferStore");
