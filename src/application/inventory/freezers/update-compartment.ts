import { requireCompartment } from "./find-freezer.js";
import type { CompartmentInput } from "./get-compartment.js";
import { HouseholdUseCase } from "../household-access.js";
import { type CompartmentView, viewCompartment } from "./freezer-views.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface UpdateCompartmentInput extends CompartmentInput {
  name?: string | undefined;
  position?: number | undefined;
}

export class UpdateCompartment extends HouseholdUseCase<Pick<InventoryPorts, "freezers">> {
  async execute(input: UpdateCompartmentInput): Promise<CompartmentView> {
    await this.access.requireMember(input.householdId, input.userId);
    const compartment = await requireCompartment(
      this.ports.freezers,
      input.householdId,
      input.freezerId,
      input.compartmentId,
    );
    if (input.name === undefined && input.position === undefined) return viewCompartment(compartment);
    const updated = {
      ...compartment,
      name: input.name === undefined ? compartment.name : input.name.trim(),
      position: input.position ?? compartment.position,
    };
    await this.ports.freezers.updateCompartment(updated);
    return viewCompartment(updated);
  }
}
