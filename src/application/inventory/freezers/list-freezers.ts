import { HouseholdUseCase } from "../household-access.js";
import { type FreezerView, viewFreezer } from "./freezer-views.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export class ListFreezers extends HouseholdUseCase<Pick<InventoryPorts, "freezers">> {
  async execute(input: HouseholdInput): Promise<FreezerView[]> {
    await this.access.requireMember(input.householdId, input.userId);
    return (await this.ports.freezers.listFreezers(input.householdId)).map(viewFreezer);
  }
}
