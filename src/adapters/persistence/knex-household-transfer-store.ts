import type { Knex } from "knex";
import type { ChangeLogEntry } from "../../domain/inventory/change-log-entry.js";
import type { FreezerItem } from "../../domain/inventory/freezer-item.js";
import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";
import {
  belongsToAnotherHousehold,
  ImportInvalidError,
  MAX_REPORTED_PROBLEMS,
  type TransferFreezer,
} from "../../domain/inventory/household-transfer.js";
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
    return readFreezers(this.knex, householdId);
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
    return foreignIds(this.knex, householdId, ids);
  }

  async importAll(
    write: ImportWrite,
  ): Promise<{ itemsCreated: number; freezersCreated: number; compartmentsCreated: number }> {
    return this.knex.transaction(async (trx) => {
      // Imports of one household queue here, and each places its rows against what the one
      // before it committed: a double submit creates its named freezers once. NO KEY UPDATE
      // leaves the household's other writes (their foreign-key checks) free to go on meanwhile.
      const household = await trx.raw<{ rows: unknown[] }>("SELECT id FROM households WHERE id = ? FOR NO KEY UPDATE", [
        write.householdId,
      ]);
      if (household.rows.length === 0) throw new NotHouseholdMemberError();
      const counts = { itemsCreated: 0, freezersCreated: 0, compartmentsCreated: 0 };
      for await (const batch of write.batches(await readFreezers(trx, write.householdId))) {
        const insert = (table: string, kind: "freezers" | "compartments" | "items", rows: { id: string }[]) =>
          insertOwned(trx, write.householdId, { table, kind, rows, fileRows: batch.rows });
        counts.freezersCreated += await insert("freezers", "freezers", batch.freezers.map(freezerRow));
        counts.compartmentsCreated += await insert(
          "compartments",
          "compartments",
          batch.compartments.map(compartmentRow),
        );
        // 14 columns × 1000 rows stays well under PostgreSQL's 65535 bind parameters.
        counts.itemsCreated += await insert("freezer_items", "items", batch.items.map(toRow));
      }
      return counts;
    });
  }
}

const KIND = { items: "item", freezers: "freezer", compartments: "compartment" } as const;

/** Which of `ids` are items, freezers or compartments of another household. */
async function foreignIds(
  db: Knex | Knex.Transaction,
  householdId: string,
  ids: { items: string[]; freezers: string[]; compartments: string[] },
): Promise<string[]> {
  const foreign: string[] = [];
  const query = async (sql: string, list: string[]) => {
    if (list.length === 0) return;
    const result = await db.raw<{ rows: { id: string }[] }>(sql.replace("(?)", `(${list.map(() => "?").join(", ")})`), [
      ...list,
      householdId,
    ]);
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

/**
 * Inserts rows whose id is new and returns how many were. An id that was not new is the
 * household's own (left as it is) or, when another household's import took it after this one
 * checked the file, refuses the import with the file rows that named it.
 */
async function insertOwned(
  trx: Knex.Transaction,
  householdId: string,
  write: {
    table: string;
    kind: "freezers" | "compartments" | "items";
    rows: { id: string }[];
    fileRows: ReadonlyMap<string, string>;
  },
): Promise<number> {
  const inserted = await insertIgnoring(trx, write.table, write.rows);
  if (inserted.size === write.rows.length) return inserted.size;
  const skipped = write.rows.map((row) => row.id).filter((id) => !inserted.has(id));
  const taken = await foreignIds(trx, householdId, {
    items: [],
    freezers: [],
    compartments: [],
    [write.kind]: skipped,
  });
  if (taken.length > 0) {
    throw new ImportInvalidError(
      taken.slice(0, MAX_REPORTED_PROBLEMS).map((id) => ({
        row: write.fileRows.get(id) ?? "file",
        message: belongsToAnotherHousehold(KIND[write.kind], id),
      })),
      taken.length,
    );
  }
  return inserted.size;
}

/** Inserts rows whose id is new; returns the ids that were. */
async function insertIgnoring(trx: Knex.Transaction, table: string, rows: { id: string }[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  // In id order, so two imports sharing ids wait for each other rather than deadlock.
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let start = 0; start < sorted.length; start += 1000) {
    const result = (await trx(table)
      .insert(sorted.slice(start, start + 1000))
      .onConflict("id")
      .ignore()
      .returning("id")) as { id: string }[];
    for (const row of result) inserted.add(row.id);
  }
  return inserted;
}

/** The household's freezers with their compartments, in their order. */
async function readFreezers(db: Knex | Knex.Transaction, householdId: string): Promise<TransferFreezer[]> {
  const freezers = await db.raw<{ rows: FreezerRow[] }>(
    "SELECT id, household_id, name, description, position, created_at, updated_at FROM freezers WHERE household_id = ? ORDER BY position, created_at, id",
    [householdId],
  );
  const compartments = await db.raw<{ rows: CompartmentRow[] }>(
    `SELECT c.id, c.freezer_id, c.name, c.position, c.created_at FROM compartments c JOIN freezers f ON f.id = c.freezer_id
       WHERE f.household_id = ? ORDER BY c.position, c.name, c.id`,
    [householdId],
  );
  return freezers.rows.map((row) => ({
    ...toFreezer(row),
    compartments: compartments.rows.filter((compartment) => compartment.freezer_id === row.id).map(toCompartment),
  }));
}
