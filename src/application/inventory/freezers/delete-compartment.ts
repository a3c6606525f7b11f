import { householdEvents } from "../household-events.js";
import { CompartmentNotEmptyError, CompartmentNotFoundError } from "../../../domain/inventory/errors.js";
import { requireFreezer } from "./find-freezer.js";
import type { CompartmentInput } from "./get-compartment.js";
import { HouseholdUseCase } from "../household-access.js";
import type { Confirmation, InventoryPorts } from "../inventory-ports.js";

/** Refused while any item, archived ones included, is in the compartment. */
export class DeleteCompartment extends HouseholdUseCase<Pick<InventoryPorts, "freezers" | "ids" | "clock">> {
  async execute(input: CompartmentInput): Promise<Confirmation> {
    await this.access.requireOwner(input.householdId, input.userId);
    await requireFreezer(this.ports.freezers, input.householdId, input.freezerId);
    const event = householdEvents(this.ports, input);
    const outcome = await this.ports.freezers.deleteCompartment(input.freezerId, input.compartmentId, [
      event("compartment.deleted", { freezerId: input.freezerId, compartmentId: input.compartmentId }),
    ]);
    if (outcome === "not-found") throw new CompartmentNotFoundError();
    if (outcome === "has-items") throw new CompartmentNotEmptyError();
    return { message: "Compartment deleted" };
  }
}
