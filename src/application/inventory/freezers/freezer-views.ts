import type { Compartment, Freezer } from "../../../domain/inventory/freezer.js";

/** A freezer as the API shows it: everything but its last change time. */
export type FreezerView = Omit<Freezer, "updatedAt">;

export interface CompartmentView {
  id: string;
  freezerId: string;
  name: string;
  position: number;
}

export interface FreezerDetailView extends FreezerView {
  compartments: CompartmentView[];
}

export function viewFreezer(freezer: Freezer): FreezerView {
  return {
    id: freezer.id,
    householdId: freezer.householdId,
    name: freezer.name,
    description: freezer.description,
    position: freezer.position,
    createdAt: freezer.createdAt,
  };
}

export function viewCompartment(compartment: Compartment): CompartmentView {
  return {
    id: compartment.id,
    freezerId: compartment.freezerId,
    name: compartment.name,
    position: compartment.position,
  };
}
