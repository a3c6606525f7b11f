import { requireFreezer } from "./find-freezer.js";
import { HouseholdUseCase } from "../household-access.js";
import { type FreezerView, viewFreezer } from "./freezer-views.js";
import type { FreezerInput } from "./get-freezer.js";
import type { InventoryPorts } from "../inventory-ports.js";

export interface UpdateFreezerInput extends FreezerInput {
  name?: string | undefined;
  /** null clears the description. */
  description?: string | null | undefined;
  position?: number | undefined;
}

export class UpdateFreezer extends HouseholdUseCase<Pick<InventoryPorts, "freezers" | "clock">> {
  async execute(input: UpdateFreezerInput): Promise<FreezerView> {
    await this.access.requireMember(input.householdId, input.userId);
    const freezer = await requireFreezer(this.ports.freezers, input.householdId, input.freezerId);
    if (input.name === undefined && input.description === undefined && input.position === undefined)
      return viewFreezer(freezer);
    const updated = {
      ...freezer,
      name: input.name === undefined ? freezer.name : input.name.trim(),
      description: input.description === undefined ? freezer.description : input.description,
      position: input.position ?? freezer.position,
      updatedAt: this.ports.clock.now(),
    };
    await this.ports.freezers.updateFreezer(updated);
    return viewFreezer(updated);
  }
}
