import type { Clock } from "../../ports/clock.js";
import type { ItemRepository } from "../../ports/item-repository.js";
import type { ItemListPage } from "./list-items.js";

const DAY_MS = 86_400_000;

export interface ListExpiringItemsInput {
  householdId: string;
  /** Expiring within this many days from now; already expired items are always included. */
  days: number;
  page: number;
  limit: number;
}

/** Active items that expire within N days or have expired, soonest first, paged like the item list. */
export class ListExpiringItems {
  constructor(
    private readonly items: ItemRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: ListExpiringItemsInput): Promise<ItemListPage> {
    const { items, total } = await this.items.list({
      householdId: input.householdId,
      expiresBefore: new Date(this.clock.now().getTime() + input.days * DAY_MS),
      sort: "expiresAt",
      order: "asc",
      page: input.page,
      limit: input.limit,
    });
    return { data: items, total, page: input.page, limit: input.limit };
  }
}
