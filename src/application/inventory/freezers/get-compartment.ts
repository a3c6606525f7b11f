import { requireCompartment } from "./find-freezer.js";
import { HouseholdUseCase } from "../household-access.js";
import { type CompartmentView, viewCompartment } from "./freezer-views.js";
import type { FreezerInput } from "./get-freezer.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface CompartmentInput extends FreezerInput {
  compartmentId: string;
}

export class GetCompartment extends HouseholdUseCase<Pick<InventoryPorts, "freezers">> {
  async execute(input: CompartmentInput): Promise<CompartmentView> {
    await this.access.requireMember(input.householdId, input.userId);
    return viewCompartment(
      await requireCompartment(this.ports.freezers, input.householdId, input.freezerId, input.compartmentId),
    );
  }
}
