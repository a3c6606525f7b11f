import type { Compartment, Freezer } from "../domain/inventory/freezer.js";
import type { InventoryEvent } from "../domain/inventory/inventory-event.js";

export type DeleteOutcome = "deleted" | "not-found" | "has-items";

/** Freezers and their compartments. */
export interface FreezerRepository {
  /** `events` (here and below) go to the outbox in the same transaction as the change. */
  insertFreezer(freezer: Freezer, events?: InventoryEvent[]): Promise<void>;
  /** The freezer when it belongs to the household, else null. */
  findFreezer(householdId: string, freezerId: string): Promise<Freezer | null>;
  /** Freezers of the household ordered by position, then oldest first. */
  listFreezers(householdId: string): Promise<Freezer[]>;
  updateFreezer(freezer: Freezer): Promise<void>;
  /** Deletes the freezer and its compartments unless any item (active or archived) is in it. */
  deleteFreezer(householdId: string, freezerId: string, events?: InventoryEvent[]): Promise<DeleteOutcome>;

  insertCompartment(compartment: Compartment, events?: InventoryEvent[]): Promise<void>;
  /** The compartment when it belongs to the freezer, else null. */
  findCompartment(freezerId: string, compartmentId: string): Promise<Compartment | null>;
  /** Compartments of the freezer ordered by position, then name. */
  listCompartments(freezerId: string): Promise<Compartment[]>;
  updateCompartment(compartment: Compartment): Promise<void>;
  /** Deletes the compartment unless any item (active or archived) is in it. */
  deleteCompartment(freezerId: string, compartmentId: string, events?: InventoryEvent[]): Promise<DeleteOutcome>;
}

export const FREEZER_REPOSITORY = Symbol("FreezerRepository");
