import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import { ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import type { HouseholdAccess } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ItemPorts } from "./item-use-cases.js";

/** One item of the household, active or archived. */
export class GetItem {
  constructor(
    private readonly ports: Pick<ItemPorts, "items">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: HouseholdInput & { itemId: string }): Promise<FreezerItemView> {
    await this.access.requireMember(input.householdId, input.userId);
    const item = await this.ports.items.findById(input.householdId, input.itemId);
    if (!item) throw new ItemNotFoundError();
    return item;
  }
}
