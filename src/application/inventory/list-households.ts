import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { InventoryPorts } from "./inventory-ports.js";

export class ListHouseholds {
  constructor(private readonly ports: Pick<InventoryPorts, "households">) {}

  async execute(input: { userId: string }): Promise<HouseholdView[]> {
    return (await this.ports.households.listForUser(input.userId)).map(viewHousehold);
  }
}
