/** The figures a household's summary shows (MQTT, Home Assistant sensors, reminders). */
export interface HouseholdSummary {
  householdId: string;
  /** Active items. */
  itemCount: number;
  /** Active items expiring from now to `soonDays` days ahead. */
  expiringSoon: number;
  /** Active items whose expiry has passed. */
  expired: number;
  /** The same figures per category in the categories' order, then items without one (`categoryId` null). */
  byCategory: CategorySummary[];
}

/** A household summary's figures of one category. */
export interface CategorySummary {
  /** null: the items without a category. */
  categoryId: string | null;
  /** The default the category is (apps translate it), else null. */
  key: string | null;
  /** null for the items without a category. */
  name: string | null;
  itemCount: number;
  expiringSoon: number;
  expired: number;
}

export interface HouseholdName {
  id: string;
  name: string;
}

/** Active items per freezer, for automations. */
export interface FreezerCount {
  freezerId: string;
  name: string;
  itemCount: number;
}

/** Read-only figures across the inventory, for publishers and the automations' service. */
export interface InventorySummaries {
  /** Every household, oldest first; with `ids`, only those of them that exist (in any order). */
  listHouseholds(ids?: readonly string[]): Promise<HouseholdName[]>;
  summarize(householdId: string, now: Date, soonDays: number): Promise<HouseholdSummary>;
  countsByFreezer(householdId: string): Promise<FreezerCount[]>;
}

export const INVENTORY_SUMMARIES = Symbol("InventorySummaries");
