import type { Knex } from "knex";

export interface InventoryCountsResult {
  households: number;
  users: number;
  activeItems: number;
}

/** Household, (non-deleted) user and active item totals, in one round trip, for metrics gauges. */
export async function countInventory(knex: Knex): Promise<InventoryCountsResult> {
  const result = await knex.raw(`
    SELECT
      (SELECT COUNT(*) FROM households) AS households,
      (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL) AS users,
      (SELECT COUNT(*) FROM freezer_items WHERE deleted_at IS NULL) AS active_items
  `);
  const row = (
    result.rows as { households: number | string; users: number | string; active_items: number | string }[]
  )[0];
  return {
    households: Number(row?.households ?? 0),
    users: Number(row?.users ?? 0),
    activeItems: Number(row?.active_items ?? 0),
  };
}
