import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { ChangeLogEntry } from "../../domain/inventory/change-log-entry.js";
import type { FreezerItem } from "../../domain/inventory/freezer-item.js";
import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";
import {
  belongsToAnotherHousehold,
  type ImportedPhoto,
  ImportInvalidError,
  MAX_REPORTED_PROBLEMS,
  type TransferFreezer,
  type TransferPhoto,
} from "../../domain/inventory/household-transfer.js";
import type { RememberedBarcode } from "../../domain/inventory/barcode.js";
import type { HouseholdTransferStore, ImportCounts, ImportWrite } from "../../ports/household-transfer-store.js";
import { KnexBarcodeRepository, rememberMissingBarcodes } from "./knex-barcode-repository.js";
import type { ItemCategory } from "../../domain/inventory/item-category.js";
import { CATEGORY_ORDER, type CategoryRow, categoryRow, toCategory } from "./knex-category-repository.js";
import {
  type CompartmentRow,
  compartmentRow,
  type FreezerRow,
  freezerRow,
  toCompartment,
  toFreezer,
} from "./knex-freezer-repository.js";
import { type ItemRow, toItem, toRow } from "./knex-item-repository.js";
import { changeShoppingList } from "./knex-shopping-list-repository.js";

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** Rows one transaction of a chunked import writes: short enough that others wait little. */
const CHUNK_ROWS = 250;

type ImportKind = "freezer" | "compartment" | "category" | "item";

export interface KnexHouseholdTransferOptions {
  /**
   * Write an import in short transactions of CHUNK_ROWS rows instead of one, listing what each
   * wrote in import_batch_rows so that a failure takes it all back. For PGlite: its one
   * connection would otherwise be held by the import from start to end, and every other
   * request, of every household, would wait that long. (PostgreSQL keeps the one transaction:
   * other connections are not held up by it.)
   */
  chunked?: boolean;
}

/**
 * Export and import over PostgreSQL or PGlite: keyset pages to read; to write, one
 * transaction, or (chunked) short ones whose rows are taken back if the import fails.
 */
export class KnexHouseholdTransferStore implements HouseholdTransferStore {
  private readonly chunked: boolean;
  /** Chunked imports run one after another (they are not one transaction each). */
  private importsDone: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly knex: Knex,
    options: KnexHouseholdTransferOptions = {},
  ) {
    this.chunked = options.chunked ?? false;
  }

  async freezers(householdId: string): Promise<TransferFreezer[]> {
    return readFreezers(this.knex, householdId);
  }

  async categories(householdId: string): Promise<ItemCategory[]> {
    return readCategories(this.knex, householdId);
  }

  async itemsAfter(householdId: string, afterId: string | null, limit: number): Promise<FreezerItem[]> {
    const result = await this.knex.raw<{ rows: ItemRow[] }>(
      `SELECT id, household_id, freezer_id, compartment_id, name, quantity, unit, category_id, notes, stored_at, expires_at, barcode, deleted_at,
         created_at, updated_at, created_by, updated_by, photo_updated_at
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

  async barcodesAfter(householdId: string, afterCode: string | null, limit: number): Promise<RememberedBarcode[]> {
    return new KnexBarcodeRepository(this.knex).listAfter(householdId, afterCode, limit);
  }

  async photosAfter(householdId: string, afterItemId: string | null, limit: number): Promise<TransferPhoto[]> {
    const result = await this.knex.raw<{ rows: { item_id: string; content_type: string; display: Uint8Array }[] }>(
      `SELECT p.item_id, p.content_type, p.display
         FROM item_photos p JOIN freezer_items i ON i.id = p.item_id
        WHERE i.household_id = ? AND p.item_id > ? ORDER BY p.item_id LIMIT ?`,
      [householdId, afterItemId ?? "", limit],
    );
    return result.rows.map((row) => ({ itemId: row.item_id, contentType: row.content_type, image: row.display }));
  }

  async foreignIds(
    householdId: string,
    ids: { items: string[]; freezers: string[]; compartments: string[] },
  ): Promise<string[]> {
    return foreignIds(this.knex, householdId, ids);
  }

  async ownItemIds(householdId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows: { id: string }[] = await this.knex("freezer_items")
      .where({ household_id: householdId })
      .whereIn("id", ids)
      .select("id");
    return rows.map((row) => row.id);
  }

  async importAll(write: ImportWrite): Promise<ImportCounts> {
    if (this.chunked) {
      const run = this.importsDone.then(() => this.importInChunks(write));
      this.importsDone = run.catch(() => undefined);
      return run;
    }
    return this.knex.transaction(async (trx) => {
      // Imports of one household queue here, and each places its rows against what the one
      // before it committed: a double submit creates its named freezers once. NO KEY UPDATE
      // leaves the household's other writes (their foreign-key checks) free to go on meanwhile.
      const household = await trx.raw<{ rows: unknown[] }>("SELECT id FROM households WHERE id = ? FOR NO KEY UPDATE", [
        write.householdId,
      ]);
      if (household.rows.length === 0) throw new NotHouseholdMemberError();
      const counts: ImportCounts = {
        itemsCreated: 0,
        freezersCreated: 0,
        compartmentsCreated: 0,
        categoriesCreated: 0,
        barcodesRemembered: 0,
        shoppingEntriesAdded: 0,
      };
      // The items this import created: only they take the file's photos.
      const created = new Set<string>();
      const current = await readFreezers(trx, write.householdId);
      for await (const batch of write.batches(current, await readCategories(trx, write.householdId))) {
        const insert = async (table: string, kind: "freezers" | "compartments" | "items", rows: { id: string }[]) =>
          insertOwned(trx, write.householdId, { table, kind, rows, fileRows: batch.rows });
        counts.freezersCreated += (await insert("freezers", "freezers", batch.freezers.map(freezerRow))).size;
        counts.compartmentsCreated += (
          await insert("compartments", "compartments", batch.compartments.map(compartmentRow))
        ).size;
        // Categories are always new ids (see ImportBatch): a plain insert.
        if (batch.categories.length > 0) await trx("item_categories").insert(batch.categories.map(categoryRow));
        counts.categoriesCreated += batch.categories.length;
        // 17 columns × 1000 rows stays well under PostgreSQL's 65535 bind parameters.
        const items = await insert("freezer_items", "items", batch.items.map(toRow));
        counts.itemsCreated += items.size;
        for (const id of items) created.add(id);
        counts.barcodesRemembered += await rememberMissingBarcodes(trx, batch.barcodes);
        await writeImportedPhotos(trx, write.householdId, batch, created);
      }
      counts.shoppingEntriesAdded = await addImportedShoppingEntries(trx, write);
      return counts;
    });
  }

  /**
   * The import in short transactions, the connection free for others between them. The
   * import's rows are visible to its household as they are written; they are its own until
   * the batch is marked complete, and taken back if anything fails before that.
   */
  private async importInChunks(write: ImportWrite): Promise<ImportCounts> {
    const household = await this.knex.raw<{ rows: unknown[] }>("SELECT id FROM households WHERE id = ?", [
      write.householdId,
    ]);
    if (household.rows.length === 0) throw new NotHouseholdMemberError();
    const batchId = randomUUID();
    await this.knex("import_batches").insert({ id: batchId, household_id: write.householdId, started_at: new Date() });
    const counts: ImportCounts = {
      itemsCreated: 0,
      freezersCreated: 0,
      compartmentsCreated: 0,
      categoriesCreated: 0,
      barcodesRemembered: 0,
      shoppingEntriesAdded: 0,
    };
    // Barcodes and shopping-list entries are written with the commit point, in its one short
    // transaction (an import holds at most MAX_IMPORTED_BARCODES and a list's worth of entries),
    // so there is nothing of them to take back on failure.
    const barcodes: RememberedBarcode[] = [];
    try {
      // Imports on PGlite take turns (importAll), so this reads what the one before created.
      // The next batch is read from the file only once this one is written: the database
      // paces the parser, so memory holds one batch however large the file.
      // The items this import created: only they take the file's photos.
      const created = new Set<string>();
      const current = await readFreezers(this.knex, write.householdId);
      for await (const batch of write.batches(current, await readCategories(this.knex, write.householdId))) {
        const chunks = (kind: Exclude<ImportKind, "category">, rows: { id: string }[]) =>
          this.writeChunks(batchId, kind, rows, async (trx, slice) => {
            const inserted = await insertOwned(trx, write.householdId, {
              table: IMPORT_TABLES[kind],
              kind: OWNED_KIND[kind],
              rows: slice,
              fileRows: batch.rows,
            });
            if (kind === "item") for (const id of inserted) created.add(id);
            return inserted;
          });
        counts.freezersCreated += await chunks("freezer", batch.freezers.map(freezerRow));
        counts.compartmentsCreated += await chunks("compartment", batch.compartments.map(compartmentRow));
        counts.categoriesCreated += await this.writeChunks(
          batchId,
          "category",
          batch.categories.map(categoryRow),
          async (trx, slice) => {
            await trx("item_categories").insert(slice);
            return new Set(slice.map((row) => row.id));
          },
        );
        counts.itemsCreated += await chunks("item", batch.items.map(toRow));
        barcodes.push(...batch.barcodes);
        // Taken back with their items (the foreign key cascades) if the import fails later.
        if (batch.photos?.length) {
          await this.knex.transaction((trx) => writeImportedPhotos(trx, write.householdId, batch, created));
        }
      }
      // The import's commit point: from here on its rows stay.
      await this.knex.transaction(async (trx) => {
        counts.barcodesRemembered = await rememberMissingBarcodes(trx, barcodes);
        counts.shoppingEntriesAdded = await addImportedShoppingEntries(trx, write);
        await trx("import_batches").where({ id: batchId }).update({ completed_at: new Date() });
      });
    } catch (error) {
      await this.undoImport(batchId);
      throw error;
    }
    await this.forgetImport(batchId);
    return counts;
  }

  /** Inserts `rows` CHUNK_ROWS at a time, each chunk with its list entries; returns how many were new. */
  private async writeChunks(
    batchId: string,
    kind: ImportKind,
    rows: { id: string }[],
    insert: (trx: Knex.Transaction, rows: { id: string }[]) => Promise<Set<string>>,
  ): Promise<number> {
    let inserted = 0;
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      inserted += await this.knex.transaction(async (trx) => {
        const ids = [...(await insert(trx, rows.slice(start, start + CHUNK_ROWS)))];
        if (ids.length > 0)
          await trx("import_batch_rows").insert(ids.map((id) => ({ batch_id: batchId, kind, row_id: id })));
        return ids.length;
      });
      // Lets requests that arrived meanwhile queue for the connection before the next chunk does.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return inserted;
  }

  /**
   * Takes back what an unfinished import wrote, in short transactions: its items, then its
   * compartments and freezers that hold nothing (a member may have put something in one).
   */
  private async undoImport(batchId: string): Promise<void> {
    const remove: Record<ImportKind, (trx: Knex.Transaction, ids: string[]) => Promise<unknown>> = {
      item: (trx, ids) => trx("freezer_items").whereIn("id", ids).delete(),
      // A member may have filed an item under one meanwhile: it is uncategorised (SET NULL).
      category: (trx, ids) => trx("item_categories").whereIn("id", ids).delete(),
      compartment: (trx, ids) =>
        trx("compartments")
          .whereIn("id", ids)
          .whereNotExists(
            trx("freezer_items").select(trx.raw("1")).whereRaw("freezer_items.compartment_id = compartments.id"),
          )
          .delete(),
      freezer: (trx, ids) =>
        trx("freezers")
          .whereIn("id", ids)
          .whereNotExists(trx("compartments").select(trx.raw("1")).whereRaw("compartments.freezer_id = freezers.id"))
          .whereNotExists(trx("freezer_items").select(trx.raw("1")).whereRaw("freezer_items.freezer_id = freezers.id"))
          .delete(),
    };
    for (const kind of ["item", "category", "compartment", "freezer"] as const)
      await this.eachListedChunk(batchId, kind, (trx, ids) => remove[kind](trx, ids));
    await this.knex("import_batches").where({ id: batchId }).delete();
  }

  /** Deletes a finished import's list of rows, in short transactions. */
  private async forgetImport(batchId: string): Promise<void> {
    for (const kind of ["item", "category", "compartment", "freezer"] as const)
      await this.eachListedChunk(batchId, kind, async () => undefined);
    await this.knex("import_batches").where({ id: batchId }).delete();
  }

  /** Runs `act` on the listed ids of `kind`, CHUNK_ROWS at a time, deleting them from the list. */
  private async eachListedChunk(
    batchId: string,
    kind: ImportKind,
    act: (trx: Knex.Transaction, ids: string[]) => Promise<unknown>,
  ): Promise<void> {
    for (;;) {
      const more = await this.knex.transaction(async (trx) => {
        const ids: string[] = await trx("import_batch_rows")
          .where({ batch_id: batchId, kind })
          .limit(CHUNK_ROWS)
          .pluck("row_id");
        if (ids.length === 0) return false;
        await act(trx, ids);
        await trx("import_batch_rows").where({ batch_id: batchId, kind }).whereIn("row_id", ids).delete();
        return true;
      });
      if (!more) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Undoes the chunked imports a stopped process left unfinished and forgets finished ones'
   * lists; call at start, before serving. Returns how many imports were undone.
   */
  async undoInterruptedImports(): Promise<number> {
    const batches: { id: string; completed_at: Date | null }[] = await this.knex("import_batches").select(
      "id",
      "completed_at",
    );
    let undone = 0;
    for (const batch of batches) {
      if (batch.completed_at === null) {
        await this.undoImport(batch.id);
        undone++;
      } else await this.forgetImport(batch.id);
    }
    return undone;
  }
}

/** Stores a batch's photos of the items this import created, and sets those items' photo version. */
async function writeImportedPhotos(
  trx: Knex.Transaction,
  householdId: string,
  batch: { photos?: ImportedPhoto[]; photoAt?: Date },
  created: ReadonlySet<string>,
): Promise<void> {
  const at = batch.photoAt ?? new Date();
  for (const photo of batch.photos ?? []) {
    if (!created.has(photo.itemId)) continue;
    await trx.raw(
      `INSERT INTO item_photos (item_id, content_type, thumb, display, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (item_id) DO NOTHING`,
      [photo.itemId, photo.images.contentType, Buffer.from(photo.images.thumb), Buffer.from(photo.images.display), at],
    );
    await trx("freezer_items").where({ id: photo.itemId, household_id: householdId }).update({ photo_updated_at: at });
  }
}

const OWNED_KIND: Record<Exclude<ImportKind, "category">, "freezers" | "compartments" | "items"> = {
  freezer: "freezers",
  compartment: "compartments",
  item: "items",
};

const IMPORT_TABLES: Record<Exclude<ImportKind, "category">, string> = {
  freezer: "freezers",
  compartment: "compartments",
  item: "freezer_items",
};

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
): Promise<Set<string>> {
  const inserted = await insertIgnoring(trx, write.table, write.rows);
  if (inserted.size === write.rows.length) return inserted;
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
  return inserted;
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

/** The household's categories, in their order. */
async function readCategories(db: Knex | Knex.Transaction, householdId: string): Promise<ItemCategory[]> {
  const result = await db.raw<{ rows: CategoryRow[] }>(
    `SELECT * FROM item_categories WHERE household_id = ? ORDER BY ${CATEGORY_ORDER}`,
    [householdId],
  );
  return result.rows.map(toCategory);
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

/** The import's shopping-list entries, added under the list's lock in the commit's transaction. */
async function addImportedShoppingEntries(trx: Knex.Transaction, write: ImportWrite): Promise<number> {
  const changer = write.shoppingList?.();
  if (!changer) return 0;
  const changed = await changeShoppingList(trx, write.householdId, changer);
  if (!changed) throw new NotHouseholdMemberError();
  return changed.result;
}
