import type { ChangeLogEntryView } from "../../../domain/inventory/change-log-entry.js";
import { ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import type { HouseholdAccess } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ItemPorts } from "./item-use-cases.js";

/** An item's change log, newest first (entries of one change ordered by field name). */
export class GetItemHistory {
  constructor(
    private readonly ports: Pick<ItemPorts, "items">,
    private readonly access: HouseholdAccess,
  ) {}

  async execute(input: HouseholdInput & { itemId: string }): Promise<ChangeLogEntryView[]> {
    await this.access.requireMember(input.householdId, input.userId);
    const item = await this.ports.items.findById(input.householdId, input.itemId);
    if (!item) throw new ItemNotFoundError();
    return this.ports.items.history(item.id);
  }
}
