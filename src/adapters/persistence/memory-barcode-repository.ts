import type { RememberedBarcode } from "../../domain/inventory/barcode.js";
import type { BarcodeRepository } from "../../ports/barcode-repository.js";

/** The households' remembered barcodes in process memory. */
export class MemoryBarcodeRepository implements BarcodeRepository {
  private readonly rows = new Map<string, Map<string, RememberedBarcode>>();

  async find(householdId: string, code: string): Promise<RememberedBarcode | null> {
    const row = this.rows.get(householdId)?.get(code);
    return row ? { ...row } : null;
  }

  async save(entry: RememberedBarcode): Promise<RememberedBarcode> {
    const household = this.rows.get(entry.householdId) ?? new Map<string, RememberedBarcode>();
    household.set(entry.code, { ...entry });
    this.rows.set(entry.householdId, household);
    return { ...entry };
  }

  async listAfter(householdId: string, afterCode: string | null, limit: number): Promise<RememberedBarcode[]> {
    // Byte order, as the SQL adapter's COLLATE "C" (codes are ASCII).
    return [...(this.rows.get(householdId)?.values() ?? [])]
      .filter((row) => afterCode === null || row.code > afterCode)
      .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
      .slice(0, limit)
      .map((row) => ({ ...row }));
  }

  /** Remembers the entries whose code their household has not remembered; returns how many were new. */
  rememberMissing(entries: RememberedBarcode[]): number {
    let inserted = 0;
    for (const entry of entries) {
      if (this.rows.get(entry.householdId)?.has(entry.code)) continue;
      void this.save(entry);
      inserted++;
    }
    return inserted;
  }

  /** The household cascade of the shared memory store. */
  deleteHousehold(householdId: string): void {
    this.rows.delete(householdId);
  }
}
