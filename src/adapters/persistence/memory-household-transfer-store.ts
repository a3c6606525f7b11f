import type { ChangeLogEntry } from "../../domain/inventory/change-log-entry.js";
import { compareCompartments } from "../../domain/inventory/freezer.js";
import type { FreezerItem } from "../../domain/inventory/freezer-item.js";
import type { TransferFreezer } from "../../domain/inventory/household-transfer.js";
import type { HouseholdTransferStore, ImportWrite } from "../../ports/household-transfer-store.js";
import type { MemoryInventoryStore } from "./memory-inventory-store.js";
import type { MemoryItemRepository } from "./memory-item-repository.js";

/** Export and import over the in-memory store (tests and the in-memory API). */
export class MemoryHouseholdTransferStore implements HouseholdTransferStore {
  constructor(
    private readonly store: MemoryInventoryStore,
    private readonly items: MemoryItemRepository,
  ) {}

  async freezers(householdId: string): Promise<TransferFreezer[]> {
    return [...this.store.freezers.values()]
      .filter((freezer) => freezer.householdId === householdId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
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
    // Collected first and applied at the end: a failure midway leaves nothing, as a transaction would.
    const freezers = write.freezers.filter((freezer) => !this.store.freezers.has(freezer.id));
    const compartments = write.compartments.filter((compartment) => !this.store.compartments.has(compartment.id));
    const items: FreezerItem[] = [];
    for await (const batch of write.items()) items.push(...batch.filter((item) => !this.items.holds(item.id)));
    for (const freezer of freezers) this.store.freezers.set(freezer.id, { ...freezer });
    for (const compartment of compartments) this.store.compartments.set(compartment.id, { ...compartment });
    await this.items.insertMany(items);
    return { itemsCreated: items.length, freezersCreated: freezers.length, compartmentsCreated: compartments.length };
  }
}
