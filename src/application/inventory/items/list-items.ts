import type { FreezerItemView } from "../../../domain/inventory/freezer-item.js";
import { NotHouseholdMemberError } from "../../../domain/inventory/errors.js";
import type { ItemListQuery } from "../../../ports/item-repository.js";
import type { ItemPorts } from "./item-use-cases.js";

export interface ItemListPage {
  data: FreezerItemView[];
  total: number;
  page: number;
  limit: number;
}

/**
 * The household's active items, filtered, searched, sorted and paged, for a member. The
 * membership is read with the list's first query rather than through HouseholdAccess, so a
 * cached page costs one round trip; the rule is the same (403 for non-members).
 */
export class ListItems {
  constructor(private readonly ports: Pick<ItemPorts, "items">) {}

  async execute(input: ItemListQuery & { userId: string }): Promise<ItemListPage> {
    const { userId, ...query } = input;
    return memberPage(this.ports.items, userId, query);
  }
}

/** One page of `query` for a member (403's error for anyone else), as the list routes answer it. */
export async function memberPage(
  items: ItemPorts["items"],
  userId: string,
  query: ItemListQuery,
): Promise<ItemListPage> {
  const found = await items.listForMember(userId, query);
  if (!found) throw new NotHouseholdMemberError();
  return {
    data: found.items,
    total: found.total,
    page: query.page,
    limit: query.limit,
  };
}
