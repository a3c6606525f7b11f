import type { Knex } from "knex";
import type { ChangeLogEntry } from "../../domain/inventory/change-log-entry.js";
import type { FreezerItem } from "../../domain/inventory/freezer-item.js";
import type { TransferFreezer } from "../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore, ImportWrite } from "../../ports/household-transfer-store.js";
import {
  type CompartmentRow,
  compartmentRow,
  type FreezerRow,
  freezerRow,
  toCompartment,
  toFreezer,
} from "./knex-freezer-repository.js";
import { type ItemRow, toItem, toRow } from "./knex-item-repository.js";

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** Export and import over PostgreSQL or PGlite: keyset pages to read, one transaction to write. */
export class KnexHouseholdTransferStore implements HouseholdTransferStore {
  constructor(private readonly knex: Knex) {}

  async freezers(householdId: string): Promise<TransferFreezer[]> {
    const freezers = await this.knex.raw<{ rows: FreezerRow[] }>(
      "SELECT id, household_id, name, description, position, created_at, updated_at FROM freezers WHERE household_id = ? ORDER BY position, created_at, id",
      [householdId],
    );
    const compartments = await this.knex.raw<{ rows: CompartmentRow[] }>(
      `SELECT c.id, c.freezer_id, c.name, c.position, c.created_at FROM compartments c JOIN freezers f ON f.id = c.freezer_id
       WHERE f.household_id = ? ORDER BY c.position, c.name, c.id`,
      [householdId],
    );
    return freezers.rows.map((row) => ({
      ...toFreezer(row),
      compartments: compartments.rows.filter((compartment) => compartment.freezer_id === row.id).map(toCompartment),
    }));
  }

  async itemsAfter(householdId: string, afterId: string | null, limit: number): Promise<FreezerItem[]> {
    const result = await this.knex.raw<{ rows: ItemRow[] }>(
      `SELECT id, household_id, freezer_id, compartment_id, name, quantity, notes, stored_at, expires_at, deleted_at,
         created_at, updated_at, created_by, updated_by
       FROM freezer_items WHERE household_id = ? AND id > ? ORDER BY id LIMIT ?`,
      [householdId, afterId ?? "", limit],
    );
    return result.rows.map(toItem);
  }

  async historyAfter(householdId: string, afterId: string | null, limit: number): Promise<ChangeLogEntry[]> {
    const result = await this.knex.raw<{
      rows: {
        id: string;
        item_id: string;
        field_name: string;
        old_value: string | null;
        new_value: string | null;
        changed_at: Date;
        changed_by: string;
      }[];
    }>(
      `SELECT l.id, l.item_id, l.field_name, l.old_value, l.new_value, l.changed_at, l.changed_by
       FROM item_change_log l JOIN freezer_items i ON i.id = l.item_id
       WHERE i.household_id = ? AND l.id > ? ORDER BY l.id LIMIT ?`,
      [householdId, afterId ?? "", limit],
    );
    return result.rows.map((row) => ({
      id: row.id,
      itemId: row.item_id,
      fieldName: row.field_name,
      oldValue: row.old_value,
      newValue: row.new_value,
      changedAt: date(row.changed_at),
      changedById: row.changed_by,
    }));
  }

  async foreignIds(
    householdId: string,
    ids: { items: string[]; freezers: string[]; compartments: string[] },
  ): Promise<string[]> {
    const foreign: string[] = [];
    const query = async (sql: string, list: string[]) => {
      if (list.length === 0) return;
      const result = await this.knex.raw<{ rows: { id: string }[] }>(
        sql.replace("(?)", `(${list.map(() => "?").join(", ")})`),
        [...list, householdId],
      );
      foreign.push(...result.rows.map((row) => row.id));
    };
    await query("SELECT id FROM freezer_items WHERE id IN (?) AND household_id <> ?", ids.items);
    await query("SELECT id FROM freezers WHERE id IN (?) AND household_id <> ?", ids.freezers);
    await query(
      "SELECT c.id FROM compartments c JOIN freezers f ON f.id = c.freezer_id WHERE c.id IN (?) AND f.household_id <> ?",
      ids.compartments,
    );
    return foreign;
  }

  async importAll(
    write: ImportWrite,
  ): Promise<{ itemsCreated: number; freezersCreated: number; compartmentsCreated: number }> {
    return this.knex.transaction(async (trx) => {
      const freezersCreated = await insertIgnoring(trx, "freezers", write.freezers.map(freezerRow));
      const compartmentsCreated = await insertIgnoring(trx, "compartments", write.compartments.map(compartmentRow));
      let itemsCreated = 0;
      for await (const batch of write.items()) {
        // 14 columns × 1000 rows stays well under PostgreSQL's 65535 bind parameters.
        itemsCreated += await insertIgnoring(trx, "freezer_items", batch.map(toRow));
      }
      return { itemsCreated, freezersCreated, compartmentsCreated };
    });
  }
}

/** Inserts rows whose id is new; returns how many were. */
async function insertIgnoring(trx: Knex.Transaction, table: string, rows: object[]): Promise<number> {
  if (rows.length === 0) return 0;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += 1000) {
    const result = await trx(table)
      .insert(rows.slice(start, start + 1000))
      .onConflict("id")
      .ignore()
      .returning("id");
    inserted += (result as unknown[]).length;
  }
  return inserted;
}
