import type { ChangeLogEntryView } from "../../../domain/inventory/change-log-entry.js";
import { ItemNotFoundError } from "../../../domain/inventory/item-errors.js";
import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ItemPorts } from "./item-use-cases.js";

/** An item's change log, newest first (entries of one change ordered by field name). */
export class GetItemHistory {
  constructor(private readonly ports: Pick<ItemPorts, "items">) {}

  async execute(input: HouseholdInput & { itemId: string }): Promise<ChangeLogEntryView[]> {
    const read = await this.ports.items.historyForMember(input);
    if (!read) throw new NotHouseholdMemberError();
    if (!read.found) throw new ItemNotFoundError();
    return read.found;
  }
}
