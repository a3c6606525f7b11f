import type { ChangeLogEntry } from "../../domain/inventory/change-log-entry.js";
import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";
import {
  type Compartment,
  compareCompartments,
  compareFreezers,
  type Freezer,
} from "../../domain/inventory/freezer.js";
import type { FreezerItem } from "../../domain/inventory/freezer-item.js";
import {
  belongsToAnotherHousehold,
  ImportInvalidError,
  MAX_REPORTED_PROBLEMS,
  type TransferFreezer,
} from "../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore, ImportWrite } from "../../ports/household-transfer-store.js";
import type { MemoryInventoryStore } from "./memory-inventory-store.js";
import type { MemoryItemRepository } from "./memory-item-repository.js";

/** Export and import over the in-memory store (tests and the in-memory API). */
export class MemoryHouseholdTransferStore implements HouseholdTransferStore {
  /** Per household, the end of the import queued last. */
  private readonly importing = new Map<string, Promise<void>>();

  constructor(
    private readonly store: MemoryInventoryStore,
    private readonly items: MemoryItemRepository,
  ) {}

  async freezers(householdId: string): Promise<TransferFreezer[]> {
    return [...this.store.freezers.values()]
      .filter((freezer) => freezer.householdId === householdId)
      .sort(compareFreezers)
      .map((freezer) => ({
        ...freezer,
        compartments: [...this.store.compartments.values()]
          .filter((c) => c.freezerId === freezer.id)
          .sort(compareCompartments),
      }));
  }

  async itemsAfter(householdId: string, afterId: string | null, limit: number): Promise<FreezerItem[]> {
    return this.items
      .householdItems(householdId)
      .filter((item) => afterId === null || item.id > afterId)
      .slice(0, limit);
  }

  async historyAfter(householdId: string, afterId: string | null, limit: number): Promise<ChangeLogEntry[]> {
    return this.items
      .householdHistory(householdId)
      .filter((entry) => afterId === null || entry.id > afterId)
      .slice(0, limit);
  }

  async ownItemIds(householdId: string, ids: string[]): Promise<string[]> {
    return ids.filter((id) => this.items.holds(id)?.householdId === householdId);
  }

  async foreignIds(
    householdId: string,
    ids: { items: string[]; freezers: string[]; compartments: string[] },
  ): Promise<string[]> {
    const freezerHousehold = (id: string) => this.store.freezers.get(id)?.householdId;
    return [
      ...ids.items.filter((id) => {
        const item = this.items.holds(id);
        return item !== undefined && item.householdId !== householdId;
      }),
      ...ids.freezers.filter((id) => (freezerHousehold(id) ?? householdId) !== householdId),
      ...ids.compartments.filter((id) => {
        const compartment = this.store.compartments.get(id);
        return compartment !== undefined && freezerHousehold(compartment.freezerId) !== householdId;
      }),
    ];
  }

  async importAll(
    write: ImportWrite,
  ): Promise<{ itemsCreated: number; freezersCreated: number; compartmentsCreated: number }> {
    // Imports of one household run one after the other, as the knex store's household lock makes them.
    const before = this.importing.get(write.householdId) ?? Promise.resolve();
    const turn = before.then(() => this.importLocked(write));
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.importing.set(write.householdId, settled);
    try {
      return await turn;
    } finally {
      if (this.importing.get(write.householdId) === settled) this.importing.delete(write.householdId);
    }
  }

  private async importLocked(
    write: ImportWrite,
  ): Promise<{ itemsCreated: number; freezersCreated: number; compartmentsCreated: number }> {
    const { householdId } = write;
    if (!this.store.households.has(householdId)) throw new NotHouseholdMemberError();
    const freezers: Freezer[] = [];
    const compartments: Compartment[] = [];
    const items: FreezerItem[] = [];
    const fileRows = new Map<string, string>();
    for await (const batch of write.batches(await this.freezers(householdId))) {
      freezers.push(...batch.freezers);
      compartments.push(...batch.compartments);
      items.push(...batch.items);
      for (const [id, row] of batch.rows) fileRows.set(id, row);
    }
    // Checked and applied with no await in between, so nothing else runs in the middle: an id
    // another household took while this import read its file refuses the import, as in knex.
    const taken: { row: string; message: string }[] = [];
    const fresh = <T extends { id: string }>(
      records: T[],
      kind: "item" | "freezer" | "compartment",
      ownerOf: (id: string) => string | undefined,
    ): T[] =>
      records.filter((record) => {
        const owner = ownerOf(record.id);
        if (owner !== undefined && owner !== householdId)
          taken.push({ row: fileRows.get(record.id) ?? "file", message: belongsToAnotherHousehold(kind, record.id) });
        return owner === undefined;
      });
    const freezerOwner = (id: string) => this.store.freezers.get(id)?.householdId;
    const newFreezers = fresh(freezers, "freezer", freezerOwner);
    const newCompartments = fresh(compartments, "compartment", (id) => {
      const compartment = this.store.compartments.get(id);
      return compartment && freezerOwner(compartment.freezerId);
    });
    const newItems = fresh(items, "item", (id) => this.items.holds(id)?.householdId);
    if (taken.length > 0) throw new ImportInvalidError(taken.slice(0, MAX_REPORTED_PROBLEMS), taken.length);
    for (const freezer of newFreezers) this.store.freezers.set(freezer.id, { ...freezer });
    for (const compartment of newCompartments) this.store.compartments.set(compartment.id, { ...compartment });
    await this.items.insertMany(newItems);
    return {
      itemsCreated: newItems.length,
      freezersCreated: newFreezers.length,
      compartmentsCreated: newCompartments.length,
    };
  }
}
