import { DAY_MS } from "../../../domain/shared/local-time.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPorts } from "./item-use-cases.js";
import type { ItemListPage } from "./list-items.js";

export interface ListExpiringItemsInput {
  householdId: string;
  userId: string;
  /** Expiring within this many days from now; already expired items are always included. */
  days: number;
  page: number;
  limit: number;
}

/** Active items that expire within N days or have expired, soonest first, paged like the item list. */
export class ListExpiringItems extends HouseholdUseCase<Pick<ItemPorts, "items" | "clock">> {
  async execute(input: ListExpiringItemsInput): Promise<ItemListPage> {
    await this.access.requireMember(input.householdId, input.userId);
    const { items, total } = await this.ports.items.list({
      householdId: input.householdId,
      expiresBefore: new Date(this.ports.clock.now().getTime() + input.days * DAY_MS),
      sort: "expiresAt",
      order: "asc",
      page: input.page,
      limit: input.limit,
    });
    return { data: items, total, page: input.page, limit: input.limit };
  }
}
