import { DAY_MS } from "../../domain/shared/local-time.js";
import type { Knex } from "knex";
import { compareCategories } from "../../domain/inventory/item-category.js";
import type {
  CategorySummary,
  FreezerCount,
  HouseholdName,
  HouseholdSummary,
  InventorySummaries,
} from "../../ports/inventory-summaries.js";

/** Household figures in one query each, read off the active-items indexes. */
export class KnexInventorySummaries implements InventorySummaries {
  constructor(private readonly knex: Knex) {}

  async listHouseholds(ids?: readonly string[]): Promise<HouseholdName[]> {
    if (ids === undefined) {
      const result = await this.knex.raw<{ rows: HouseholdName[] }>(
        "SELECT id, name FROM households ORDER BY created_at, id",
      );
      return result.rows.map((row) => ({ id: row.id, name: row.name }));
    }
    const names: HouseholdName[] = [];
    // Chunks keep a long list under PostgreSQL's limit of bind parameters.
    for (let start = 0; start < ids.length; start += 1000) {
      const rows = await this.knex<HouseholdName>("households")
        .select("id", "name")
        .whereIn("id", ids.slice(start, start + 1000));
      names.push(...rows.map((row) => ({ id: row.id, name: row.name })));
    }
    return names;
  }

  async summarize(householdId: string, now: Date, soonDays: number): Promise<HouseholdSummary> {
    const soon = new Date(now.getTime() + soonDays * DAY_MS);
    // Per category, off freezer_items_household_category_idx; the household's figures are their sums.
    const result = await this.knex.raw<{
      rows: {
        category_id: string | null;
        key: string | null;
        name: string | null;
        position: number | null;
        total: number | string;
        expired: number | string;
        soon: number | string;
      }[];
    }>(
      `WITH counts AS (
         SELECT category_id, count(*) AS total,
           count(*) FILTER (WHERE expires_at < ?) AS expired,
           count(*) FILTER (WHERE expires_at >= ? AND expires_at < ?) AS soon
         FROM freezer_items WHERE household_id = ? AND deleted_at IS NULL
         GROUP BY category_id
       )
       SELECT k.id AS category_id, k.key, k.name, k.position, COALESCE(c.total, 0) AS total,
              COALESCE(c.expired, 0) AS expired, COALESCE(c.soon, 0) AS soon
         FROM item_categories k LEFT JOIN counts c ON c.category_id = k.id
        WHERE k.household_id = ?
       UNION ALL
       SELECT NULL, NULL, NULL, NULL, COALESCE(sum(c.total), 0), COALESCE(sum(c.expired), 0), COALESCE(sum(c.soon), 0)
         FROM counts c WHERE c.category_id IS NULL`,
      [now, now, soon, householdId, householdId],
    );
    // UNION ALL keeps no order: categories go in theirs (compareCategories), items without one last.
    const byCategory: CategorySummary[] = result.rows
      .sort((a, b) => {
        if (a.category_id === null || b.category_id === null) return a.category_id === null ? 1 : -1;
        return compareCategories(
          { id: a.category_id, name: a.name ?? "", position: Number(a.position) },
          { id: b.category_id, name: b.name ?? "", position: Number(b.position) },
        );
      })
      .map((row) => ({
        categoryId: row.category_id,
        key: row.key,
        name: row.name,
        itemCount: Number(row.total),
        expiringSoon: Number(row.soon),
        expired: Number(row.expired),
      }));
    const sum = (field: "itemCount" | "expiringSoon" | "expired") =>
      byCategory.reduce((total, entry) => total + entry[field], 0);
    return {
      householdId,
      itemCount: sum("itemCount"),
      expiringSoon: sum("expiringSoon"),
      expired: sum("expired"),
      byCategory,
    };
  }

  async countsByFreezer(householdId: string): Promise<FreezerCount[]> {
    const result = await this.knex.raw<{ rows: { id: string; name: string; total: number | string }[] }>(
      `SELECT f.id, f.name, count(i.id) AS total
       FROM freezers f LEFT JOIN freezer_items i ON i.freezer_id = f.id AND i.deleted_at IS NULL
       WHERE f.household_id = ?
       GROUP BY f.id, f.name, f.created_at
       ORDER BY f.created_at, f.id`,
      [householdId],
    );
    return result.rows.map((row) => ({ freezerId: row.id, name: row.name, itemCount: Number(row.total) }));
  }
}
