import type { Compartment, Freezer } from "../../../domain/inventory/freezer.js";
import type { FreezerItem } from "../../../domain/inventory/freezer-item.js";
import {
  belongsToAnotherHousehold,
  type ImportCompartmentRow,
  type ImportFreezerRow,
  type ImportItemRow,
  ImportInvalidError,
  type ImportRow,
  type ImportSummary,
  MAX_REPORTED_PROBLEMS,
  type TransferFreezer,
} from "../../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore, ImportBatch } from "../../../ports/household-transfer-store.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

const BATCH = 1000;

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
  private created: { freezers: Freezer[]; compartments: Compartment[] } = { freezers: [], compartments: [] };

  constructor(
    private readonly householdId: string,
    private readonly now: Date,
    private readonly newId: () => string,
    current: TransferFreezer[],
  ) {
    for (const freezer of current) {
      this.addFreezer(freezer.id, freezer.name, freezer.position);
      for (const compartment of freezer.compartments) this.addCompartment(compartment.id, freezer.id, compartment.name);
    }
  }

  /** Places one row: why it cannot be, the item's place, or null for a row that places no item. */
  place(row: ImportRow): string | Place | null {
    switch (row.kind) {
      case "problem":
        return row.message;
      case "skipped":
        return null;
      case "freezer":
        this.freezerRow(row);
        return null;
      case "compartment":
        return this.compartmentRow(row);
      case "item":
        return this.resolve(row);
    }
  }

  /** The freezers and compartments created since the last call, to be written before the items in them. */
  takeCreated(): { freezers: Freezer[]; compartments: Compartment[] } {
    const created = this.created;
    this.created = { freezers: [], compartments: [] };
    return created;
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
  private resolve(row: ImportItemRow): Place | string {
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
 * as it is once its turn comes: items are keyed by id and named freezers and compartments by
 * name, so importing the same file again (or twice at once) changes nothing the second time.
 * An id of another household is refused, never written.
 */
export class ImportHousehold extends HouseholdUseCase<
  { transfers: HouseholdTransferStore } & Pick<InventoryPorts, "ids" | "clock">
> {
  async execute(input: ImportHouseholdInput): Promise<ImportSummary> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.ports.clock.now();
    if (input.dryRun) return this.preview(input, now);
    const itemCount = await this.validate(input, now);
    const written = await this.ports.transfers.importAll({
      householdId: input.householdId,
      batches: (current) => this.batches(input, now, current),
    });
    return { ...written, itemsUnchanged: itemCount - written.itemsCreated };
  }

  private placements(input: ImportHouseholdInput, now: Date, current: TransferFreezer[]): Placements {
    return new Placements(input.householdId, now, () => this.ports.ids.next(), current);
  }

  /** The first pass: every problem of every row, or the number of items. */
  private async validate(input: ImportHouseholdInput, now: Date): Promise<number> {
    const placements = this.placements(input, now, await this.ports.transfers.freezers(input.householdId));
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
    for await (const row of input.rows()) {
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
    return items;
  }

  /**
   * The dry run: the same checks as an import (so a file the preview accepts is one the import
   * accepts, unless the household changes in between), then what it would create, counted from
   * the same placements and the items the household already has.
   */
  private async preview(input: ImportHouseholdInput, now: Date): Promise<ImportSummary> {
    const itemCount = await this.validate(input, now);
    const placements = this.placements(input, now, await this.ports.transfers.freezers(input.householdId));
    const summary: ImportSummary = { freezersCreated: 0, compartmentsCreated: 0, itemsCreated: 0, itemsUnchanged: 0 };
    let ids: string[] = [];
    const count = async () => {
      summary.itemsUnchanged += (await this.ports.transfers.ownItemIds(input.householdId, ids)).length;
      ids = [];
    };
    for await (const row of input.rows()) {
      placements.place(row);
      const created = placements.takeCreated();
      summary.freezersCreated += created.freezers.length;
      summary.compartmentsCreated += created.compartments.length;
      if (row.kind === "item") ids.push(row.id);
      if (ids.length >= BATCH) await count();
    }
    await count();
    summary.itemsCreated = itemCount - summary.itemsUnchanged;
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
  ): AsyncGenerator<ImportBatch> {
    const placements = this.placements(input, now, current);
    const { householdId, userId } = input;
    let batch: ImportBatch & { rows: Map<string, string> } = emptyBatch();
    for await (const row of input.rows()) {
      const place = placements.place(row);
      if (typeof place === "string") throw new ImportInvalidError([{ row: row.row, message: place }], 1);
      const created = placements.takeCreated();
      for (const freezer of created.freezers) batch.rows.set(freezer.id, row.row);
      for (const compartment of created.compartments) batch.rows.set(compartment.id, row.row);
      batch.freezers.push(...created.freezers);
      batch.compartments.push(...created.compartments);
      if (row.kind !== "item" || place === null) continue;
      batch.rows.set(row.id, row.row);
      batch.items.push(importedItem(row, place, { householdId, userId, now }));
      if (batch.items.length >= BATCH) {
        yield batch;
        batch = emptyBatch();
      }
    }
    if (batch.items.length > 0 || batch.freezers.length > 0 || batch.compartments.length > 0) yield batch;
  }
}

function emptyBatch(): ImportBatch & { rows: Map<string, string> } {
  return { freezers: [], compartments: [], items: [], rows: new Map() };
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
    notes: row.notes,
    storedAt: row.storedAt,
    expiresAt: row.expiresAt,
    deletedAt: row.archivedAt,
    createdAt: row.createdAt ?? by.now,
    updatedAt: by.now,
    createdById: by.userId,
    updatedById: by.userId,
  };
}
