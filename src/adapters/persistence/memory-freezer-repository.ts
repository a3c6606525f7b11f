import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import {
  type Compartment,
  compareCompartments,
  compareFreezers,
  type Freezer,
} from "../../domain/inventory/freezer.js";
import type { DeleteOutcome, FreezerRepository } from "../../ports/freezer-repository.js";
import { copy, type MemoryInventoryStore } from "./memory-inventory-store.js";

export class MemoryFreezerRepository implements FreezerRepository {
  constructor(private readonly store: MemoryInventoryStore) {}

  async insertFreezer(freezer: Freezer, events?: InventoryEvent[]): Promise<void> {
    this.store.outbox.append(events);
    this.store.freezers.set(freezer.id, copy(freezer));
  }

  async findFreezer(householdId: string, freezerId: string): Promise<Freezer | null> {
    const freezer = this.store.freezers.get(freezerId);
    return freezer && freezer.householdId === householdId ? copy(freezer) : null;
  }

  async listFreezers(householdId: string): Promise<Freezer[]> {
    return [...this.store.freezers.values()]
      .filter((freezer) => freezer.householdId === householdId)
      .sort(compareFreezers)
      .map(copy);
  }

  async updateFreezer(freezer: Freezer): Promise<void> {
    if (this.store.freezers.has(freezer.id)) this.store.freezers.set(freezer.id, copy(freezer));
  }

  async deleteFreezer(householdId: string, freezerId: string, events?: InventoryEvent[]): Promise<DeleteOutcome> {
    const freezer = this.store.freezers.get(freezerId);
    if (!freezer || freezer.householdId !== householdId) return "not-found";
    if (this.store.itemsIn({ freezerId })) return "has-items";
    for (const [key, compartment] of this.store.compartments) {
      if (compartment.freezerId === freezerId) this.store.compartments.delete(key);
    }
    this.store.freezers.delete(freezerId);
    this.store.outbox.append(events);
    return "deleted";
  }

  async insertCompartment(compartment: Compartment, events?: InventoryEvent[]): Promise<void> {
    this.store.outbox.append(events);
    this.store.compartments.set(compartment.id, copy(compartment));
  }

  async findCompartment(freezerId: string, compartmentId: string): Promise<Compartment | null> {
    const compartment = this.store.compartments.get(compartmentId);
    return compartment && compartment.freezerId === freezerId ? copy(compartment) : null;
  }

  async listCompartments(freezerId: string): Promise<Compartment[]> {
    return [...this.store.compartments.values()]
      .filter((compartment) => compartment.freezerId === freezerId)
      .sort(compareCompartments)
      .map(copy);
  }

  async updateCompartment(compartment: Compartment): Promise<void> {
    if (this.store.compartments.has(compartment.id)) this.store.compartments.set(compartment.id, copy(compartment));
  }

  async deleteCompartment(freezerId: string, compartmentId: string, events?: InventoryEvent[]): Promise<DeleteOutcome> {
    const compartment = this.store.compartments.get(compartmentId);
    if (!compartment || compartment.freezerId !== freezerId) return "not-found";
    if (this.store.itemsIn({ compartmentId })) return "has-items";
    this.store.compartments.delete(compartmentId);
    this.store.outbox.append(events);
    return "deleted";
  }
}
