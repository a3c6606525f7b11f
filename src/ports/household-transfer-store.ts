import type { ChangeLogEntry } from "../domain/inventory/change-log-entry.js";
import type { Compartment, Freezer } from "../domain/inventory/freezer.js";
import type { FreezerItem } from "../domain/inventory/freezer-item.js";
import type { TransferFreezer } from "../domain/inventory/household-transfer.js";

/** Records an import writes together: the freezers and compartments its items need come first. */
export interface ImportBatch {
  freezers: Freezer[];
  compartments: Compartment[];
  items: FreezerItem[];
  /** The file row that brought each id of the batch, to name it when the id is refused. */
  rows: ReadonlyMap<string, string>;
}

/** What one import writes. */
export interface ImportWrite {
  householdId: string;
  /**
   * The batches to write, decided against `current`: the household's freezers as they are once
   * the store holds the household's import lock, so a second import of a file finds what the
   * first created instead of creating it again. May throw (ImportInvalidError) to write nothing.
   */
  batches(current: TransferFreezer[]): AsyncIterable<ImportBatch>;
}

/** Whole-household reads and the one-transaction import, for export and import. */
export interface HouseholdTransferStore {
  /** The household's freezers with their compartments. */
  freezers(householdId: string): Promise<TransferFreezer[]>;
  /** Items (active and archived) by id, after `afterId`, at most `limit`. */
  itemsAfter(householdId: string, afterId: string | null, limit: number): Promise<FreezerItem[]>;
  /** Change-log entries of the household's items by id, after `afterId`, at most `limit`. */
  historyAfter(householdId: string, afterId: string | null, limit: number): Promise<ChangeLogEntry[]>;
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
  importAll(
    write: ImportWrite,
  ): Promise<{ itemsCreated: number; freezersCreated: number; compartmentsCreated: number }>;
}

export const HOUSEHOLD_TRANSFER_STORE = Symbol("HouseholdTransferStore");
