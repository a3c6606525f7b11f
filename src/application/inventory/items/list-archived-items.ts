import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import type { ItemListQuery } from "../../../ports/item-repository.js";
import { HouseholdUseCase } from "../household-access.js";
import type { HouseholdInput } from "../inventory-ports.js";
import type { ItemPorts } from "./item-use-cases.js";
import { type ItemListPage, memberPage } from "./list-items.js";

/** The household's archive, most recently archived first, for a member. */
export class ListArchivedItems extends HouseholdUseCase<Pick<ItemPorts, "items">> {
  /** The whole archive, as the spec's plain array. */
  async execute(input: HouseholdInput): Promise<FreezerItemView[]> {
    await this.access.requireMember(input.householdId, input.userId);
    return this.ports.items.listArchived(input.householdId);
  }

  /** One page of the archive, searchable like the item list. */
  async page(input: Omit<ItemListQuery, "archived"> & { userId: string }): Promise<ItemListPage> {
    const { userId, ...query } = input;
    return memberPage(this.ports.items, userId, { ...query, archived: true });
  }
}
