import type { ChangeLogEntry } from "../domain/inventory/change-log-entry.js";
import type { Compartment, Freezer } from "../domain/inventory/freezer.js";
import type { FreezerItem } from "../domain/inventory/freezer-item.js";
import type { TransferFreezer } from "../domain/inventory/household-transfer.js";

/** What one import writes, decided before anything is written. */
export interface ImportWrite {
  householdId: string;
  freezers: Freezer[];
  compartments: Compartment[];
  /** Called for the items in batches; each batch is inserted, skipping ids already present. */
  items(): AsyncIterable<FreezerItem[]>;
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
  /** Writes freezers, compartments and items in one transaction; returns how many items were new. */
  importAll(
    write: ImportWrite,
  ): Promise<{ itemsCreated: number; freezersCreated: number; compartmentsCreated: number }>;
}

export const HOUSEHOLD_TRANSFER_STORE = Symbol("HouseholdTransferStore");
