import { requireFreezer } from "./find-freezer.js";
import { HouseholdUseCase } from "../household-access.js";
import { type CompartmentView, viewCompartment } from "./freezer-views.js";
import type { FreezerInput } from "./get-freezer.js";
import type { InventoryPorts } from "../inventory-ports.js";

/** Compartments ordered by position, then name. */
export class ListCompartments extends HouseholdUseCase<Pick<InventoryPorts, "freezers">> {
  async execute(input: FreezerInput): Promise<CompartmentView[]> {
    await this.access.requireMember(input.householdId, input.userId);
    const freezer = await requireFreezer(this.ports.freezers, input.householdId, input.freezerId);
    return (await this.ports.freezers.listCompartments(freezer.id)).map(viewCompartment);
  }
}
