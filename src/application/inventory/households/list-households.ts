import { requireActiveUser } from "../accounts/active-user.js";
import { type HouseholdView, viewHousehold } from "./household-views.js";
import type { InventoryPorts } from "../inventory-ports.js";

export class ListHouseholds {
  constructor(private readonly ports: Pick<InventoryPorts, "users" | "households">) {}

  async execute(input: { userId: string }): Promise<HouseholdView[]> {
    // A deleted account's unexpired token gets 401 here, as on every account route.
    const user = await requireActiveUser(this.ports.users, input.userId);
    return (await this.ports.households.listForUser(user.id)).map(viewHousehold);
  }
}
