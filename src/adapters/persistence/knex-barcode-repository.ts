import type { Knex } from "knex";
import { BARCODE_UNITS, type BarcodeUnit, type RememberedBarcode } from "../../domain/inventory/barcode.js";
import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";
import type { BarcodeRepository } from "../../ports/barcode-repository.js";
import { isForeignKeyViolation, toDate } from "./knex-rows.js";

interface BarcodeRow {
  household_id: string;
  code: string;
  name: string;
  unit: string | null;
  category_id: string | null;
  updated_at: Date | string;
}

const COLUMNS = "household_id, code, name, unit, category_id, updated_at";

function toEntry(row: BarcodeRow): RememberedBarcode {
  return {
    householdId: row.household_id,
    code: row.code,
    name: row.name,
    // The table's CHECK holds unit to the list; anything else would be a row written around it.
    unit: BARCODE_UNITS.includes(row.unit as BarcodeUnit) ? (row.unit as BarcodeUnit) : null,
    categoryId: row.category_id,
    updatedAt: toDate(row.updated_at),
  };
}

/**
 * Remembers the barcodes whose code their household has not remembered yet (an import: what the
 * household already knows stays); returns how many were new.
 */
export async function rememberMissingBarcodes(knex: Knex, entries: RememberedBarcode[]): Promise<number> {
  let inserted = 0;
  // 6 columns × 1000 rows stays well under PostgreSQL's 65535 bind parameters.
  for (let start = 0; start < entries.length; start += 1000) {
    const rows = entries.slice(start, start + 1000).map((entry) => ({
      household_id: entry.householdId,
      code: entry.code,
      name: entry.name,
      unit: entry.unit,
      category_id: entry.categoryId,
      updated_at: entry.updatedAt,
    }));
    const result = (await knex("household_barcodes")
      .insert(rows)
      .onConflict(["household_id", "code"])
      .ignore()
      .returning("code")) as { code: string }[];
    inserted += result.length;
  }
  return inserted;
}

/** The households' remembered barcodes on PostgreSQL or PGlite. */
export class KnexBarcodeRepository implements BarcodeRepository {
  constructor(private readonly knex: Knex) {}

  async find(householdId: string, code: string): Promise<RememberedBarcode | null> {
    const result = await this.knex.raw<{ rows: BarcodeRow[] }>(
      `SELECT ${COLUMNS} FROM household_barcodes WHERE household_id = ? AND code = ?`,
      [householdId, code],
    );
    return result.rows[0] ? toEntry(result.rows[0]) : null;
  }

  async save(entry: RememberedBarcode): Promise<RememberedBarcode> {
    try {
      const result = await this.knex.raw<{ rows: BarcodeRow[] }>(
        `INSERT INTO household_barcodes (household_id, code, name, unit, category_id, updated_at)
         VALUES (?, ?, ?, ?, ?, ?::timestamptz)
         ON CONFLICT (household_id, code) DO UPDATE SET name = EXCLUDED.name, unit = EXCLUDED.unit,
           category_id = EXCLUDED.category_id, updated_at = EXCLUDED.updated_at
         RETURNING ${COLUMNS}`,
        [entry.householdId, entry.code, entry.name, entry.unit, entry.categoryId, entry.updatedAt],
      );
      return toEntry(result.rows[0]!);
    } catch (error) {
      // The household was deleted between the membership check and the write.
      if (isForeignKeyViolation(error)) throw new NotHouseholdMemberError();
      throw error;
    }
  }

  async listAfter(householdId: string, afterCode: string | null, limit: number): Promise<RememberedBarcode[]> {
    const result = await this.knex.raw<{ rows: BarcodeRow[] }>(
      `SELECT ${COLUMNS} FROM household_barcodes WHERE household_id = ? AND code COLLATE "C" > ? COLLATE "C"
       ORDER BY code COLLATE "C" LIMIT ?`,
      [householdId, afterCode ?? "", limit],
    );
    return result.rows.map(toEntry);
  }
}
