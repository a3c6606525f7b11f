import type { HouseholdAccess } from "../household-access.js";
import { type FreezerView, viewFreezer } from "./freezer-views.js";
import type { HouseholdInput, InventoryPorts } from "../inventory-ports.js";

export class ListFreezers {
  constructor(
    private readonly ports: Pick<InventoryPorts, "freezers">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: HouseholdInput): Promise<FreezerView[]> {
    await this.access.requireMember(input.householdId, input.userId);
    return (await this.ports.freezers.listFreezers(input.householdId)).map(viewFreezer);
  }
}
