import { DAY_MS } from "../../domain/shared/local-time.js";
import type { Knex } from "knex";
import type {
  FreezerCount,
  HouseholdName,
  HouseholdSummary,
  InventorySummaries,
} from "../../ports/inventory-summaries.js";

/** Household figures in one query each, read off the active-items indexes. */
export class KnexInventorySummaries implements InventorySummaries {
  constructor(private readonly knex: Knex) {}

  async listHouseholds(): Promise<HouseholdName[]> {
    const result = await this.knex.raw<{ rows: HouseholdName[] }>(
      "SELECT id, name FROM households ORDER BY created_at, id",
    );
    return result.rows.map((row) => ({ id: row.id, name: row.name }));
  }

  async summarize(householdId: string, now: Date, soonDays: number): Promise<HouseholdSummary> {
    const soon = new Date(now.getTime() + soonDays * DAY_MS);
    const result = await this.knex.raw<{
      rows: { total: number | string; expired: number | string; soon: number | string }[];
    }>(
      `SELECT count(*) AS total,
         count(*) FILTER (WHERE expires_at < ?) AS expired,
         count(*) FILTER (WHERE expires_at >= ? AND expires_at < ?) AS soon
       FROM freezer_items WHERE household_id = ? AND deleted_at IS NULL`,
      [now, now, soon, householdId],
    );
    const row = result.rows[0];
    return {
      householdId,
      itemCount: Number(row?.total ?? 0),
      expiringSoon: Number(row?.soon ?? 0),
      expired: Number(row?.expired ?? 0),
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
