import type { RememberedBarcode } from "../domain/inventory/barcode.js";

/** What each household remembers about the barcodes its members scanned. */
export interface BarcodeRepository {
  /** null when the household has not remembered `code`. */
  find(householdId: string, code: string): Promise<RememberedBarcode | null>;
  /** Creates or replaces what the household remembers for the entry's code. */
  save(entry: RememberedBarcode): Promise<RememberedBarcode>;
  /** The household's codes in code order after `afterCode` (null: from the start), at most `limit`: for the export. */
  listAfter(householdId: string, afterCode: string | null, limit: number): Promise<RememberedBarcode[]>;
}

export const BARCODE_REPOSITORY = Symbol("BarcodeRepository");
