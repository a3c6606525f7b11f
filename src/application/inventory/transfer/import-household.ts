import type { Compartment, Freezer } from "../../../domain/inventory/freezer.js";
import type { FreezerItem } from "../../../domain/inventory/freezer-item.js";
import { categoryNameKey, type ItemCategory } from "../../../domain/inventory/item-category.js";
import {
  belongsToAnotherHousehold,
  type ImportCategoryRow,
  type ImportCompartmentRow,
  type ImportFreezerRow,
  type ImportItemRow,
  ImportInvalidError,
  type ImportRow,
  type ImportShoppingRow,
  type ImportSummary,
  MAX_IMPORTED_BARCODES,
  MAX_REPORTED_PROBLEMS,
  type TransferFreezer,
} from "../../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore, ImportBatch } from "../../../ports/household-transfer-store.js";
import type { ShoppingListRepository } from "../../../ports/shopping-list-repository.js";
import {
  SHOPPING_LIST_MAX_ENTRIES,
  type ShoppingListEntry,
  shoppingEntryKey,
} from "../../../domain/inventory/shopping-list.js";
import { householdEvents } from "../household-events.js";
import { eventEntry } from "../shopping-list/shopping-list-events.js";
import type { PhotoProcessor } from "../../../ports/photo-processor.js";
import { DomainError } from "../../../domain/shared/domain-error.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

const BATCH = 1000;

/** What a pass created since it was last asked, to be written before the items that need it. */
interface Created {
  freezers: Freezer[];
  compartments: Compartment[];
  categories: ItemCategory[];
}

export interface ImportHouseholdInput extends HouseholdInput {
  /**
   * The file's rows; called twice (validation, then writing), so the caller re-reads its
   * source rather than holding the file in memory.
   */
  rows(): AsyncIterable<ImportRow>;
  /** Check the file and answer what the import would create, writing nothing (the app's preview). */
  dryRun?: boolean | undefined;
}

interface Place {
  freezerId: string;
  compartmentId: string;
  categoryId: string | null;
}

/**
 * Where the rows put things, starting from the household's freezers and compartments. Each pass
 * over the file (validation, then writing under the household's import lock) gets its own, so
 * the write places rows against the household as it is by then.
 */
class Placements {
  private readonly freezerIds = new Set<string>();
  /** Compartment id → its freezer id, for the household's and the file's compartments. */
  private readonly compartmentFreezer = new Map<string, string>();
  private readonly freezerByName = new Map<string, string>();
  /** `${freezerId}\u0000${lower name}` → compartment id. */
  private readonly compartmentByName = new Map<string, string>();
  /** The position a freezer the import creates gets: after every freezer seen so far. */
  private nextFreezerPosition = 0;
  /** The household's category ids and the file's, each mapped to the household's category it became. */
  private readonly categoryIds = new Map<string, string>();
  /** categoryNameKey(name) → the household's category id. */
  private readonly categoryByName = new Map<string, string>();
  private nextCategoryPosition = 0;
  private created: Created = { freezers: [], compartments: [], categories: [] };

  constructor(
    private readonly householdId: string,
    private readonly now: Date,
    private readonly newId: () => string,
    current: TransferFreezer[],
    categories: ItemCategory[],
  ) {
    for (const freezer of current) {
      this.addFreezer(freezer.id, freezer.name, freezer.position);
      for (const compartment of freezer.compartments) this.addCompartment(compartment.id, freezer.id, compartment.name);
    }
    for (const category of categories) this.addCategory(category.id, category.name, category.position);
  }

  /** Places one row: why it cannot be, the item's place, or null for a row that places no item. */
  place(row: ImportRow): string | Place | null {
    switch (row.kind) {
      case "problem":
        return row.message;
      case "skipped":
      case "barcode":
      case "shopping":
      case "photo":
        return null;
      case "freezer":
        this.freezerRow(row);
        return null;
      case "compartment":
        return this.compartmentRow(row);
      case "category":
        this.categoryRow(row);
        return null;
      case "item": {
        const place = this.resolve(row);
        if (typeof place === "string") return place;
        const categoryId = this.resolveCategory(row);
        return categoryId === undefined
          ? `category ${row.categoryId} is not in this household or earlier in the file, and the row gives no categoryName to create it`
          : { ...place, categoryId };
      }
    }
  }

  /** The freezers and compartments created since the last call, to be written before the items in them. */
  takeCreated(): Created {
    const created = this.created;
    this.created = { freezers: [], compartments: [], categories: [] };
    return created;
  }

  private addCategory(id: string, name: string, position: number): void {
    this.categoryIds.set(id, id);
    this.nextCategoryPosition = Math.max(this.nextCategoryPosition, position + 1);
    if (!this.categoryByName.has(categoryNameKey(name))) this.categoryByName.set(categoryNameKey(name), id);
  }

  /**
   * The household's category of this name, or a new one. New categories always get new ids:
   * names are what a category is known by across households, and a file's id may be another
   * household's category.
   */
  private categoryNamed(name: string): string {
    const existing = this.categoryByName.get(categoryNameKey(name));
    if (existing !== undefined) return existing;
    const id = this.newId();
    const position = this.nextCategoryPosition;
    this.addCategory(id, name, position);
    this.created.categories.push({
      id,
      householdId: this.householdId,
      key: null,
      name,
      position,
      createdAt: this.now,
      updatedAt: this.now,
    });
    return id;
  }

  /** A category row maps the file's id to the household's category of that id or name. */
  private categoryRow(row: ImportCategoryRow): void {
    if (this.categoryIds.has(row.id)) return;
    this.categoryIds.set(row.id, this.categoryNamed(row.name));
  }

  /**
   * The household's category a remembered barcode's or a shopping-list entry's `categoryId` stands
   * for: the household's own, or the one a category row of the file became; null for any other id
   * (another household's, or none), so neither ever points outside the household.
   */
  categoryOf(fileCategoryId: string | null): string | null {
    return fileCategoryId === null ? null : (this.categoryIds.get(fileCategoryId) ?? null);
  }

  /** The item's category in the household: null for none, undefined when the file's id names nothing. */
  private resolveCategory(row: ImportItemRow): string | null | undefined {
    if (row.categoryId !== null) {
      const mapped = this.categoryIds.get(row.categoryId);
      if (mapped !== undefined) return mapped;
      return row.categoryName === null ? undefined : this.categoryNamed(row.categoryName);
    }
    return row.categoryName === null ? null : this.categoryNamed(row.categoryName);
  }

  private addFreezer(id: string, name: string, position: number): void {
    this.freezerIds.add(id);
    this.nextFreezerPosition = Math.max(this.nextFreezerPosition, position + 1);
    if (!this.freezerByName.has(name.toLowerCase())) this.freezerByName.set(name.toLowerCase(), id);
  }

  private addCompartment(id: string, freezerId: string, name: string): void {
    this.compartmentFreezer.set(id, freezerId);
    const key = `${freezerId}\u0000${name.toLowerCase()}`;
    if (!this.compartmentByName.has(key)) this.compartmentByName.set(key, id);
  }

  private createFreezer(id: string, name: string, description: string | null): void {
    // Last in the household's order; ties fall back to creation time.
    const position = this.nextFreezerPosition;
    this.addFreezer(id, name, position);
    this.created.freezers.push({
      id,
      householdId: this.householdId,
      name,
      description,
      position,
      createdAt: this.now,
      updatedAt: this.now,
    });
  }

  private createCompartment(id: string, freezerId: string, name: string, position: number): void {
    this.addCompartment(id, freezerId, name);
    this.created.compartments.push({ id, freezerId, name, position, createdAt: this.now });
  }

  /** A freezer the household has (or the file defined earlier) is left as it is. */
  private freezerRow(row: ImportFreezerRow): void {
    if (!this.freezerIds.has(row.id)) this.createFreezer(row.id, row.name, row.description);
  }

  private compartmentRow(row: ImportCompartmentRow): string | null {
    const owner = this.compartmentFreezer.get(row.id);
    if (owner !== undefined)
      return owner === row.freezerId ? null : `compartment ${row.id} is in freezer ${owner}, not ${row.freezerId}`;
    if (!this.freezerIds.has(row.freezerId))
      return `freezer ${row.freezerId} is not in this household or earlier in the file`;
    this.createCompartment(row.id, row.freezerId, row.name, row.position);
    return null;
  }

  /** The item's freezer and compartment ids, creating named ones on first use; or why not. */
  private resolve(row: ImportItemRow): Omit<Place, "categoryId"> | string {
    let freezerId = row.freezerId !== null && this.freezerIds.has(row.freezerId) ? row.freezerId : undefined;
    if (freezerId === undefined && row.compartmentId !== null && row.freezerId === null) {
      freezerId = this.compartmentFreezer.get(row.compartmentId);
    }
    if (freezerId === undefined && row.freezerName !== null) {
      freezerId = this.freezerByName.get(row.freezerName.toLowerCase());
      if (freezerId === undefined) {
        freezerId = row.freezerId ?? this.newId();
        this.createFreezer(freezerId, row.freezerName, null);
      }
    }
    if (freezerId === undefined) {
      return row.freezerId === null
        ? "names no freezer (give freezerId or freezerName)"
        : `freezer ${row.freezerId} is not in this household or earlier in the file, and the row gives no freezerName to create it`;
    }
    if (row.compartmentId !== null && this.compartmentFreezer.has(row.compartmentId)) {
      if (this.compartmentFreezer.get(row.compartmentId) !== freezerId) {
        return `compartment ${row.compartmentId} is not in freezer ${freezerId}`;
      }
      return { freezerId, compartmentId: row.compartmentId };
    }
    if (row.compartmentName === null) {
      return row.compartmentId === null
        ? "names no compartment (give compartmentId or compartmentName)"
        : `compartment ${row.compartmentId} is not in this household or earlier in the file, and the row gives no compartmentName to create it`;
    }
    let compartmentId = this.compartmentByName.get(`${freezerId}\u0000${row.compartmentName.toLowerCase()}`);
    if (compartmentId === undefined) {
      compartmentId = row.compartmentId ?? this.newId();
      this.createCompartment(compartmentId, freezerId, row.compartmentName, 0);
    }
    return { freezerId, compartmentId };
  }
}

/**
 * Imports a household file (owner only). Every row is checked first; any problem answers
 * ImportInvalidError with the rows and reasons, and nothing is written. A valid file is then
 * written in one transaction, one import of a household at a time, placed against the household
 * as it is once its turn comes: items are keyed by id, named freezers and compartments by name,
 * and shopping-list entries by what they say (added at the end of the list at the commit point),
 * so importing the same file again (or twice at once) changes nothing the second time.
 * An id of another household is refused, never written.
 */
export class ImportHousehold extends HouseholdUseCase<
  {
    transfers: HouseholdTransferStore;
    photos: PhotoProcessor;
    shoppingList: Pick<ShoppingListRepository, "list">;
  } & Pick<InventoryPorts, "ids" | "clock">
> {
  async execute(input: ImportHouseholdInput): Promise<ImportSummary> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.ports.clock.now();
    if (input.dryRun) return this.preview(input, now);
    const { items } = await this.validate(input, now);
    // Filled by the second pass as it reads the file; added at the import's commit point.
    const shopping: ImportedEntry[] = [];
    const event = householdEvents(this.ports, input, now);
    const written = await this.ports.transfers.importAll({
      householdId: input.householdId,
      batches: (current, categories) => this.batches(input, now, current, categories, shopping),
      shoppingList: () =>
        shopping.length === 0
          ? null
          : (entries) => {
              const added = entriesToAdd(entries, shopping);
              return {
                save: added,
                events: added.map((entry) => event("shopping_list.added", { entry: eventEntry(entry) })),
                result: added.length,
              };
            },
    });
    return { ...written, itemsUnchanged: items - written.itemsCreated };
  }

  private placements(
    input: ImportHouseholdInput,
    now: Date,
    current: TransferFreezer[],
    categories: ItemCategory[],
  ): Placements {
    return new Placements(input.householdId, now, () => this.ports.ids.next(), current, categories);
  }

  /**
   * The first pass: every problem of every row, or the number of items and of the shopping-list
   * entries the import would add to the list as it is now.
   */
  private async validate(input: ImportHouseholdInput, now: Date): Promise<{ items: number; shoppingAdded: number }> {
    const placements = this.placements(
      input,
      now,
      await this.ports.transfers.freezers(input.householdId),
      await this.ports.transfers.categories(input.householdId),
    );
    const problems: { row: string; message: string }[] = [];
    let total = 0;
    const problem = (row: string, message: string) => {
      total++;
      if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ row, message });
    };
    const seen = new Set<string>();
    // Every id the import would write under the name the file gives it: an item's, and a
    // freezer's or compartment's it creates (from its own row, or named by an item's row).
    let pending: { row: string; id: string; kind: "item" | "freezer" | "compartment" }[] = [];
    const checkForeign = async () => {
      if (pending.length === 0) return;
      const ofKind = (kind: string) => pending.filter((entry) => entry.kind === kind).map((entry) => entry.id);
      const foreign = new Set(
        await this.ports.transfers.foreignIds(input.householdId, {
          items: ofKind("item"),
          freezers: ofKind("freezer"),
          compartments: ofKind("compartment"),
        }),
      );
      for (const entry of pending)
        if (foreign.has(entry.id)) problem(entry.row, belongsToAnotherHousehold(entry.kind, entry.id));
      pending = [];
    };
    let items = 0;
    const codes = new Set<string>();
    const photographed = new Set<string>();
    const shopping: ImportedEntry[] = [];
    for await (const row of input.rows()) {
      if (row.kind === "shopping") {
        if (shopping.length >= SHOPPING_LIST_MAX_ENTRIES)
          problem(row.row, `an import holds at most ${SHOPPING_LIST_MAX_ENTRIES} shopping-list entries`);
        else
          shopping.push(
            importedEntry(row, null, this.ports.ids.next(), {
              householdId: input.householdId,
              userId: input.userId,
              now,
            }),
          );
        continue;
      }
      if (row.kind === "photo") {
        const refused = await this.photoProblem(row.itemId, row.image, seen, photographed);
        if (refused) problem(row.row, refused);
        photographed.add(row.itemId);
        continue;
      }
      if (row.kind === "barcode") {
        if (codes.has(row.code)) problem(row.row, `barcode ${row.code} appears twice in the file`);
        else if (codes.size >= MAX_IMPORTED_BARCODES)
          problem(row.row, `an import holds at most ${MAX_IMPORTED_BARCODES} barcodes`);
        codes.add(row.code);
      }
      if (row.kind === "item") {
        items++;
        if (seen.has(row.id)) problem(row.row, `id ${row.id} appears twice in the file`);
        seen.add(row.id);
        pending.push({ row: row.row, id: row.id, kind: "item" });
      }
      const place = placements.place(row);
      if (typeof place === "string") problem(row.row, place);
      const created = placements.takeCreated();
      for (const freezer of created.freezers) pending.push({ row: row.row, id: freezer.id, kind: "freezer" });
      for (const compartment of created.compartments)
        pending.push({ row: row.row, id: compartment.id, kind: "compartment" });
      if (pending.length >= BATCH) await checkForeign();
    }
    await checkForeign();
    if (total > 0) throw new ImportInvalidError(problems, total);
    // Refuses a file whose entries the list cannot take (checked again at the commit point).
    const shoppingAdded =
      shopping.length === 0 ? 0 : entriesToAdd(await this.ports.shoppingList.list(input.householdId), shopping).length;
    return { items, shoppingAdded };
  }

  /**
   * Why a photo row cannot be imported, if it cannot: it must belong to an item of the file
   * (named before it), come once per item, and pass the upload's image pipeline and limits.
   */
  private async photoProblem(
    itemId: string,
    image: Uint8Array,
    items: ReadonlySet<string>,
    photographed: ReadonlySet<string>,
  ): Promise<string | undefined> {
    if (!items.has(itemId)) return `itemId: item ${itemId} is not earlier in the file`;
    if (photographed.has(itemId)) return `itemId: item ${itemId} has a photo earlier in the file`;
    try {
      await this.ports.photos.process(image);
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) return `data: ${error.message}`;
      throw error;
    }
  }

  /**
   * The dry run: the same checks as an import (so a file the preview accepts is one the import
   * accepts, unless the household changes in between), then what it would create, counted from
   * the same placements and the items the household already has.
   */
  private async preview(input: ImportHouseholdInput, now: Date): Promise<ImportSummary> {
    const { householdId } = input;
    const { items: itemCount, shoppingAdded } = await this.validate(input, now);
    const placements = this.placements(
      input,
      now,
      await this.ports.transfers.freezers(householdId),
      await this.ports.transfers.categories(householdId),
    );
    const summary: ImportSummary = {
      freezersCreated: 0,
      compartmentsCreated: 0,
      categoriesCreated: 0,
      itemsCreated: 0,
      itemsUnchanged: 0,
      barcodesRemembered: 0,
      shoppingEntriesAdded: shoppingAdded,
    };
    let ids: string[] = [];
    const count = async () => {
      summary.itemsUnchanged += (await this.ports.transfers.ownItemIds(householdId, ids)).length;
      ids = [];
    };
    // At most MAX_IMPORTED_BARCODES (validate() refused more): held here to subtract the known ones.
    const codes = new Set<string>();
    for await (const row of input.rows()) {
      placements.place(row);
      const created = placements.takeCreated();
      summary.freezersCreated += created.freezers.length;
      summary.compartmentsCreated += created.compartments.length;
      summary.categoriesCreated += created.categories.length;
      if (row.kind === "item") ids.push(row.id);
      if (row.kind === "barcode") codes.add(row.code);
      if (ids.length >= BATCH) await count();
    }
    await count();
    summary.itemsCreated = itemCount - summary.itemsUnchanged;
    for (let after: string | null = null; codes.size > 0; ) {
      const known = await this.ports.transfers.barcodesAfter(householdId, after, BATCH);
      for (const barcode of known) codes.delete(barcode.code);
      if (known.length < BATCH) break;
      after = known[known.length - 1]?.code ?? null;
    }
    summary.barcodesRemembered = codes.size;
    return summary;
  }

  /**
   * The second pass, run by the store under the household's import lock: the same rows placed
   * against the household as it is now. A row that no longer fits (its freezer was deleted since
   * the first pass) refuses the whole file.
   */
  private async *batches(
    input: ImportHouseholdInput,
    now: Date,
    current: TransferFreezer[],
    categories: ItemCategory[],
    shopping: ImportedEntry[],
  ): AsyncGenerator<ImportBatch> {
    const placements = this.placements(input, now, current, categories);
    const { householdId, userId } = input;
    let batch: ImportBatch & { rows: Map<string, string> } = emptyBatch();
    for await (const row of input.rows()) {
      if (row.kind === "shopping") {
        // A new id each: the file's is another list's (see ImportShoppingRow).
        shopping.push(
          importedEntry(row, placements.categoryOf(row.categoryId), this.ports.ids.next(), {
            householdId,
            userId,
            now,
          }),
        );
        continue;
      }
      if (row.kind === "photo") {
        // One photo per batch: memory holds one decoded image at a time.
        batch.photos = [{ itemId: row.itemId, images: await this.ports.photos.process(row.image) }];
        batch.photoAt = now;
        yield batch;
        batch = emptyBatch();
        continue;
      }
      const place = placements.place(row);
      if (typeof place === "string") throw new ImportInvalidError([{ row: row.row, message: place }], 1);
      const created = placements.takeCreated();
      for (const freezer of created.freezers) batch.rows.set(freezer.id, row.row);
      for (const compartment of created.compartments) batch.rows.set(compartment.id, row.row);
      batch.freezers.push(...created.freezers);
      batch.compartments.push(...created.compartments);
      batch.categories.push(...created.categories);
      if (row.kind === "barcode") {
        const { code, name, unit } = row;
        const categoryId = placements.categoryOf(row.categoryId);
        batch.barcodes.push({ householdId, code, name, unit, categoryId, updatedAt: now });
        if (batch.barcodes.length >= BATCH) {
          yield batch;
          batch = emptyBatch();
        }
        continue;
      }
      if (row.kind !== "item" || place === null) continue;
      batch.rows.set(row.id, row.row);
      batch.items.push(importedItem(row, place, { householdId, userId, now }));
      if (batch.items.length >= BATCH) {
        yield batch;
        batch = emptyBatch();
      }
    }
    if (
      batch.items.length > 0 ||
      batch.freezers.length > 0 ||
      batch.compartments.length > 0 ||
      batch.barcodes.length > 0 ||
      batch.categories.length > 0
    )
      yield batch;
  }
}

/** A shopping-list entry of the file, with the row that brought it and its place in the exported list. */
interface ImportedEntry {
  row: string;
  /** The entry's position in the file's list. */
  filePosition: number;
  entry: ShoppingListEntry;
}

function importedEntry(
  row: ImportShoppingRow,
  categoryId: string | null,
  id: string,
  by: { householdId: string; userId: string; now: Date },
): ImportedEntry {
  return {
    row: row.row,
    filePosition: row.position,
    entry: {
      id,
      householdId: by.householdId,
      name: row.name,
      quantity: row.quantity,
      unit: row.unit,
      categoryId,
      checked: row.checked,
      position: 0,
      createdAt: by.now,
      updatedAt: by.now,
      createdById: by.userId,
      updatedById: by.userId,
    },
  };
}

/**
 * The file's entries the list `current` does not hold yet (by shoppingEntryKey, against the list
 * as it was: the file's own repeats come through as it had them), in the file's list order, placed
 * after the list's last entry; refuses the import when the list would pass its limit.
 */
function entriesToAdd(current: readonly ShoppingListEntry[], imported: readonly ImportedEntry[]): ShoppingListEntry[] {
  const held = new Set(current.map(shoppingEntryKey));
  const adding = imported
    .filter((candidate) => !held.has(shoppingEntryKey(candidate.entry)))
    // Array sort is stable: entries of one position keep the file's order.
    .sort((a, b) => a.filePosition - b.filePosition);
  const room = SHOPPING_LIST_MAX_ENTRIES - current.length;
  const first = adding[Math.max(room, 0)];
  if (first !== undefined)
    throw new ImportInvalidError(
      [
        {
          row: first.row,
          message: `the shopping list holds ${current.length} entries and takes at most ${SHOPPING_LIST_MAX_ENTRIES}: the file adds ${adding.length}, ${adding.length - Math.max(room, 0)} too many`,
        },
      ],
      1,
    );
  return adding.map((candidate, index) => ({ ...candidate.entry, position: current.length + index }));
}

function emptyBatch(): ImportBatch & { rows: Map<string, string> } {
  return { freezers: [], compartments: [], categories: [], items: [], barcodes: [], rows: new Map() };
}

function importedItem(
  row: ImportItemRow,
  place: Place,
  by: { householdId: string; userId: string; now: Date },
): FreezerItem {
  return {
    id: row.id,
    householdId: by.householdId,
    freezerId: place.freezerId,
    compartmentId: place.compartmentId,
    name: row.name,
    quantity: row.quantity,
    unit: row.unit,
    categoryId: place.categoryId,
    notes: row.notes,
    storedAt: row.storedAt,
    expiresAt: row.expiresAt,
    barcode: row.barcode,
    deletedAt: row.archivedAt,
    createdAt: row.createdAt ?? by.now,
    updatedAt: by.now,
    createdById: by.userId,
    updatedById: by.userId,
  };
}
