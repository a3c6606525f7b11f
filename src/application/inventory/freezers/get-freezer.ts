import { requireFreezer } from "./find-freezer.js";
import { HouseholdUseCase } from "../household-access.js";
import { type FreezerDetailView, viewCompartment, viewFreezer } from "./freezer-views.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export interface FreezerInput extends HouseholdInput {
  freezerId: string;
}

/** The freezer with its compartments in display order. */
export class GetFreezer extends HouseholdUseCase<Pick<InventoryPorts, "freezers">> {
  async execute(input: FreezerInput): Promise<FreezerDetailView> {
    await this.access.requireMember(input.householdId, input.userId);
    const freezer = await requireFreezer(this.ports.freezers, input.householdId, input.freezerId);
    const compartments = await this.ports.freezers.listCompartments(freezer.id);
    return { ...viewFreezer(freezer), compartments: compartments.map(viewCompartment) };
  }
}
