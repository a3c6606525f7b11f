import { CompartmentNotFoundError, FreezerNotFoundError } from "../../../domain/inventory/errors.js";
import type { Compartment, Freezer } from "../../../domain/inventory/freezer.js";
import type { FreezerRepository } from "../../../ports/freezer-repository.js";

/** A freezer of this household; one of another household is "not found". */
export async function requireFreezer(
  freezers: Pick<FreezerRepository, "findFreezer">,
  householdId: string,
  freezerId: string,
): Promise<Freezer> {
  const freezer = await freezers.findFreezer(householdId, freezerId);
  if (!freezer) throw new FreezerNotFoundError();
  return freezer;
}

/** A compartment of a freezer of this household. */
export async function requireCompartment(
  freezers: Pick<FreezerRepository, "findFreezer" | "findCompartment">,
  householdId: string,
  freezerId: string,
  compartmentId: string,
): Promise<Compartment> {
  await requireFreezer(freezers, householdId, freezerId);
  const compartment = await freezers.findCompartment(freezerId, compartmentId);
  if (!compartment) throw new CompartmentNotFoundError();
  return compartment;
}
