import type { Knex } from "knex";
import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { DefaultCategoryKey, ItemCategory } from "../../domain/inventory/item-category.js";
import type { CategoryRepository, CategoryWrite } from "../../ports/category-repository.js";
import { writeOutboxEvents } from "./knex-inventory-outbox.js";
import { affectedRows, isUniqueViolation, toDate, writeIntoHousehold } from "./knex-rows.js";

export interface CategoryRow {
  id: string;
  household_id: string;
  key: string | null;
  name: string;
  position: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export function toCategory(row: CategoryRow): ItemCategory {
  return {
    id: row.id,
    householdId: row.household_id,
    // The column only ever holds keys of DEFAULT_CATEGORIES (written from them, never from input).
    key: row.key as DefaultCategoryKey | null,
    name: row.name,
    position: Number(row.position),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export function categoryRow(category: ItemCategory): CategoryRow {
  return {
    id: category.id,
    household_id: category.householdId,
    key: category.key,
    name: category.name,
    position: category.position,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
  };
}

/** Ordered as compareCategories orders them in memory (names folded to lower case, byte order). */
export const CATEGORY_ORDER = `position, lower(name) COLLATE "C", id`;

/** Item categories on PostgreSQL or PGlite. */
export class KnexCategoryRepository implements CategoryRepository {
  constructor(private readonly knex: Knex) {}

  async list(householdId: string): Promise<ItemCategory[]> {
    const result = await this.knex.raw<{ rows: CategoryRow[] }>(
      `SELECT * FROM item_categories WHERE household_id = ? ORDER BY ${CATEGORY_ORDER}`,
      [householdId],
    );
    return result.rows.map(toCategory);
  }

  async find(householdId: string, categoryId: string): Promise<ItemCategory | null> {
    const row = await this.knex<CategoryRow>("item_categories")
      .where({ id: categoryId, household_id: householdId })
      .first();
    return row ? toCategory(row) : null;
  }

  async insert(category: ItemCategory, events?: InventoryEvent[]): Promise<CategoryWrite> {
    try {
      await writeIntoHousehold(() =>
        this.knex.transaction(async (trx) => {
          await trx("item_categories").insert(categoryRow(category));
          await writeOutboxEvents(trx, events);
        }),
      );
      return "written";
    } catch (error) {
      if (isUniqueViolation(error)) return "name-taken";
      throw error;
    }
  }

  async update(category: ItemCategory, events?: InventoryEvent[]): Promise<CategoryWrite> {
    try {
      return await this.knex.transaction(async (trx) => {
        const updated = await trx("item_categories")
          .where({ id: category.id, household_id: category.householdId })
          .update({
            key: category.key,
            name: category.name,
            position: category.position,
            updated_at: category.updatedAt,
          });
        if (affectedRows(updated) === 0) return "not-found";
        await writeOutboxEvents(trx, events);
        return "written";
      });
    } catch (error) {
      if (isUniqueViolation(error)) return "name-taken";
      throw error;
    }
  }

  async delete(
    householdId: string,
    categoryId: string,
    events: (itemCount: number) => InventoryEvent[],
  ): Promise<{ itemCount: number } | null> {
    return this.knex.transaction(async (trx) => {
      // Uncategorised explicitly (the foreign key's SET NULL would too) to count them for the event.
      const uncategorised = affectedRows(
        await trx("freezer_items")
          .where({ household_id: householdId, category_id: categoryId })
          .update({ category_id: null }),
      );
      const deleted = affectedRows(
        await trx("item_categories").where({ id: categoryId, household_id: householdId }).delete(),
      );
      if (deleted === 0) return null;
      await writeOutboxEvents(trx, events(uncategorised));
      return { itemCount: uncategorised };
    });
  }
}
