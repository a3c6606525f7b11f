import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import { ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ItemPorts } from "./item-use-cases.js";

/** One item of the household, active or archived. */
export class GetItem {
  constructor(private readonly ports: Pick<ItemPorts, "items">) {}

  async execute(input: HouseholdInput & { itemId: string }): Promise<FreezerItemView> {
    const read = await this.ports.items.findForMember(input);
    if (!read) throw new NotHouseholdMemberError();
    if (!read.found) throw new ItemNotFoundError();
    return read.found;
  }
}
