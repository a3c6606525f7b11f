import type { Compartment, Freezer } from "../../../domain/inventory/freezer.js";
import type { FreezerItem } from "../../../domain/inventory/freezer-item.js";
import {
  type ImportItemRow,
  ImportInvalidError,
  type ImportRow,
  type ImportSummary,
  MAX_REPORTED_PROBLEMS,
} from "../../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore } from "../../../ports/household-transfer-store.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

const BATCH = 1000;

export interface ImportHouseholdInput extends HouseholdInput {
  /**
   * The file's rows; called twice (validation, then writing), so the caller re-reads its
   * source rather than holding the file in memory.
   */
  rows(): AsyncIterable<ImportRow>;
}

/** Where the rows put things, decided while validating and reused while writing. */
class Placements {
  readonly freezers = new Map<string, Freezer>();
  readonly compartments = new Map<string, Compartment>();
  /** Compartment id → its freezer id, for the household's and the file's compartments. */
  readonly compartmentFreezer = new Map<string, string>();
  readonly freezerByName = new Map<string, string>();
  /** `${freezerId}\u0000${lower name}` → compartment id. */
  readonly compartmentByName = new Map<string, string>();

  constructor(
    private readonly householdId: string,
    private readonly now: Date,
    private readonly newId: () => string,
  ) {}

  knownFreezer(id: string): boolean {
    return this.freezerByIdKnown.has(id);
  }
  readonly freezerByIdKnown = new Set<string>();
  /** The position a freezer the import creates gets: after every freezer seen so far. */
  nextFreezerPosition = 0;

  addFreezer(id: string, name: string, create: Freezer | null, position = 0): void {
    this.freezerByIdKnown.add(id);
    this.nextFreezerPosition = Math.max(this.nextFreezerPosition, (create?.position ?? position) + 1);
    if (!this.freezerByName.has(name.toLowerCase())) this.freezerByName.set(name.toLowerCase(), id);
    if (create) this.freezers.set(id, create);
  }

  addCompartment(id: string, freezerId: string, name: string, create: Compartment | null): void {
    this.compartmentFreezer.set(id, freezerId);
    const key = `${freezerId}\u0000${name.toLowerCase()}`;
    if (!this.compartmentByName.has(key)) this.compartmentByName.set(key, id);
    if (create) this.compartments.set(id, create);
  }

  /** The item's freezer and compartment ids, creating named ones on first use; or why not. */
  resolve(row: ImportItemRow): { freezerId: string; compartmentId: string } | string {
    let freezerId = row.freezerId !== null && this.knownFreezer(row.freezerId) ? row.freezerId : undefined;
    if (freezerId === undefined && row.compartmentId !== null && row.freezerId === null) {
      freezerId = this.compartmentFreezer.get(row.compartmentId);
    }
    if (freezerId === undefined && row.freezerName !== null) {
      freezerId = this.freezerByName.get(row.freezerName.toLowerCase());
      if (freezerId === undefined) {
        freezerId = row.freezerId ?? this.newId();
        this.addFreezer(freezerId, row.freezerName, {
          id: freezerId,
          householdId: this.householdId,
          name: row.freezerName,
          description: null,
          // Last in the household's order; ties fall back to creation time.
          position: this.nextFreezerPosition++,
          createdAt: this.now,
          updatedAt: this.now,
        });
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
    const key = `${freezerId}\u0000${row.compartmentName.toLowerCase()}`;
    let compartmentId = this.compartmentByName.get(key);
    if (compartmentId === undefined) {
      compartmentId = row.compartmentId ?? this.newId();
      this.addCompartment(compartmentId, freezerId, row.compartmentName, {
        id: compartmentId,
        freezerId,
        name: row.compartmentName,
        position: 0,
        createdAt: this.now,
      });
    }
    return { freezerId, compartmentId };
  }
}

/**
 * Imports a household file (owner only). Every row is checked first; any problem answers
 * ImportInvalidError with the rows and reasons, and nothing is written. A valid file is then
 * written in one transaction. Items are keyed by id, so importing the same file again changes
 * nothing; an item whose compartment is missing creates it when the row names it.
 */
export class ImportHousehold extends HouseholdUseCase<
  { transfers: HouseholdTransferStore } & Pick<InventoryPorts, "ids" | "clock">
> {
  async execute(input: ImportHouseholdInput): Promise<ImportSummary> {
    await this.access.requireOwner(input.householdId, input.userId);
    const now = this.ports.clock.now();
    const placements = new Placements(input.householdId, now, () => this.ports.ids.next());
    for (const freezer of await this.ports.transfers.freezers(input.householdId)) {
      placements.addFreezer(freezer.id, freezer.name, null, freezer.position);
      for (const compartment of freezer.compartments)
        placements.addCompartment(compartment.id, freezer.id, compartment.name, null);
    }
    const itemCount = await this.validate(input, placements);
    const { householdId, userId } = input;
    const items = async function* (rows: AsyncIterable<ImportRow>): AsyncGenerator<FreezerItem[]> {
      let batch: FreezerItem[] = [];
      for await (const row of rows) {
        if (row.kind !== "item") continue;
        const place = placements.resolve(row) as { freezerId: string; compartmentId: string };
        batch.push({
          id: row.id,
          householdId,
          freezerId: place.freezerId,
          compartmentId: place.compartmentId,
          name: row.name,
          quantity: row.quantity,
          notes: row.notes,
          storedAt: row.storedAt,
          expiresAt: row.expiresAt,
          deletedAt: row.archivedAt,
          createdAt: row.createdAt ?? now,
          updatedAt: now,
          createdById: userId,
          updatedById: userId,
        });
        if (batch.length >= BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    };
    const written = await this.ports.transfers.importAll({
      householdId,
      freezers: [...placements.freezers.values()],
      compartments: [...placements.compartments.values()],
      items: () => items(input.rows()),
    });
    return { ...written, itemsUnchanged: itemCount - written.itemsCreated };
  }

  /** The first pass: every problem of every row, or the number of items. */
  private async validate(input: ImportHouseholdInput, placements: Placements): Promise<number> {
    const problems: { row: string; message: string }[] = [];
    let total = 0;
    const problem = (row: string, message: string) => {
      total++;
      if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ row, message });
    };
    const seen = new Set<string>();
    let pending: { row: string; id: string; kind: "items" | "freezers" | "compartments" }[] = [];
    const checkForeign = async () => {
      if (pending.length === 0) return;
      const ofKind = (kind: string) => pending.filter((entry) => entry.kind === kind).map((entry) => entry.id);
      const foreign = new Set(
        await this.ports.transfers.foreignIds(input.householdId, {
          items: ofKind("items"),
          freezers: ofKind("freezers"),
          compartments: ofKind("compartments"),
        }),
      );
      for (const entry of pending)
        if (foreign.has(entry.id)) problem(entry.row, `id ${entry.id} belongs to another household`);
      pending = [];
    };
    let items = 0;
    for await (const row of input.rows()) {
      switch (row.kind) {
        case "problem":
          problem(row.row, row.message);
          break;
        case "skipped":
          break;
        case "freezer":
          if (!placements.knownFreezer(row.id)) {
            placements.addFreezer(row.id, row.name, {
              id: row.id,
              householdId: input.householdId,
              name: row.name,
              description: row.description,
              position: placements.nextFreezerPosition,
              createdAt: this.ports.clock.now(),
              updatedAt: this.ports.clock.now(),
            });
            pending.push({ row: row.row, id: row.id, kind: "freezers" });
          }
          break;
        case "compartment": {
          const owner = placements.compartmentFreezer.get(row.id);
          if (owner !== undefined) {
            if (owner !== row.freezerId)
              problem(row.row, `compartment ${row.id} is in freezer ${owner}, not ${row.freezerId}`);
          } else if (!placements.knownFreezer(row.freezerId)) {
            problem(row.row, `freezer ${row.freezerId} is not in this household or earlier in the file`);
          } else {
            placements.addCompartment(row.id, row.freezerId, row.name, {
              id: row.id,
              freezerId: row.freezerId,
              name: row.name,
              position: row.position,
              createdAt: this.ports.clock.now(),
            });
            pending.push({ row: row.row, id: row.id, kind: "compartments" });
          }
          break;
        }
        case "item": {
          items++;
          if (seen.has(row.id)) problem(row.row, `id ${row.id} appears twice in the file`);
          seen.add(row.id);
          const place = placements.resolve(row);
          if (typeof place === "string") problem(row.row, place);
          pending.push({ row: row.row, id: row.id, kind: "items" });
          break;
        }
      }
      if (pending.length >= BATCH) await checkForeign();
    }
    await checkForeign();
    if (total > 0) throw new ImportInvalidError(problems, total);
    return items;
  }
}
