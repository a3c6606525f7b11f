import type { FreezerItemView } from "../../domain/inventory/freezer-item.js";
import type { ItemListQuery, ItemRepository } from "../../ports/item-repository.js";

export interface ItemListPage {
  data: FreezerItemView[];
  total: number;
  page: number;
  limit: number;
}

/** The household's active items, filtered, searched, sorted and paged. */
export class ListItems {
  constructor(private readonly items: ItemRepository) {}

  async execute(query: ItemListQuery): Promise<ItemListPage> {
    const { items, total } = await this.items.list(query);
    return { data: items, total, page: query.page, limit: query.limit };
  }
}
