import { endOfLocalDay } from "../../../domain/shared/local-time.js";
import { HouseholdUseCase } from "../household-access.js";
import type { ItemPorts } from "./item-use-cases.js";
import type { ItemListPage } from "./list-items.js";

export interface ListExpiringItemsInput {
  householdId: string;
  userId: string;
  /** Expiring by the end of the household's local day this many days from today; expired ones always. */
  days: number;
  /** Only items of this category; null: only uncategorised ones. */
  categoryId?: string | null | undefined;
  page: number;
  limit: number;
}

/** Active items that expire within N days or have expired, soonest first, paged like the item list. */
export class ListExpiringItems extends HouseholdUseCase<Pick<ItemPorts, "items" | "clock" | "timeZones">> {
  async execute(input: ListExpiringItemsInput): Promise<ItemListPage> {
    await this.access.requireMember(input.householdId, input.userId);
    // Days are the family's calendar days: in Los Angeles at 17:30 it is still today there.
    const timeZone = (await this.ports.timeZones?.timeZoneOf(input.householdId)) ?? "UTC";
    const { items, total } = await this.ports.items.list({
      householdId: input.householdId,
      expiresBefore: endOfLocalDay(this.ports.clock.now(), timeZone, input.days),
      categoryId: input.categoryId,
      sort: "expiresAt",
      order: "asc",
      page: input.page,
      limit: input.limit,
    });
    return { data: items, total, page: input.page, limit: input.limit };
  }
}
