import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import type { ItemListQuery, ItemRepository } from "../../ports/item-repository.js";
import type { ItemListPage } from "./list-items.js";

/** The household's archive, most recently archived first. */
export class ListArchivedItems {
  constructor(private readonly items: ItemRepository) {}

  /** The whole archive, as the spec's plain array. */
  execute(input: { householdId: string }): Promise<FreezerItemView[]> {
    return this.items.listArchived(input.householdId);
  }

  /** One page of the archive, searchable like the item list. */
  async page(query: Omit<ItemListQuery, "archived">): Promise<ItemListPage> {
    const { items, total } = await this.items.list({ ...query, archived: true });
    return { data: items, total, page: query.page, limit: query.limit };
  }
}
