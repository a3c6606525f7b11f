import type { Knex } from "knex";
import { InvalidItemPlacementError } from "../../domain/inventory/item-errors.js";
import type { ShoppingListEntry, ShoppingUnit } from "../../domain/inventory/shopping-list.js";
import type { ShoppingListChanger, ShoppingListRepository } from "../../ports/shopping-list-repository.js";
import { toRow as toItemRow } from "./knex-item-repository.js";
import { writeOutboxEvents } from "./knex-inventory-outbox.js";
import { isForeignKeyViolation, toDate } from "./knex-rows.js";

interface EntryRow {
  id: string;
  household_id: string;
  name: string;
  quantity: number | string;
  unit: string;
  category_id: string | null;
  checked: boolean;
  position: number | string;
  created_at: Date | string;
  updated_at: Date | string;
  created_by: string;
  updated_by: string;
}

const COLUMNS = [
  "id",
  "household_id",
  "name",
  "quantity",
  "unit",
  "category_id",
  "checked",
  "position",
  "created_at",
  "updated_at",
  "created_by",
  "updated_by",
] as const satisfies readonly (keyof EntryRow)[];

/** 12 columns × 1000 rows stays far below PostgreSQL's 65535 bind parameters. */
const CHUNK = 1000;

function toEntry(row: EntryRow): ShoppingListEntry {
  return {
    id: row.id,
    householdId: row.household_id,
    name: row.name,
    quantity: Number(row.quantity),
    // The table's CHECK constraint admits only the listed units.
    unit: row.unit as ShoppingUnit,
    categoryId: row.category_id,
    checked: row.checked,
    position: Number(row.position),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    createdById: row.created_by,
    updatedById: row.updated_by,
  };
}

function toRow(entry: ShoppingListEntry): EntryRow {
  return {
    id: entry.id,
    household_id: entry.householdId,
    name: entry.name,
    quantity: entry.quantity,
    unit: entry.unit,
    category_id: entry.categoryId,
    checked: entry.checked,
    position: entry.position,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
    created_by: entry.createdById,
    updated_by: entry.updatedById,
  };
}

const ORDER = `ORDER BY position, id COLLATE "C"`;

/** Shopping lists on PostgreSQL or PGlite through knex. */
export class KnexShoppingListRepository implements ShoppingListRepository {
  constructor(private readonly knex: Knex) {}

  async list(householdId: string): Promise<ShoppingListEntry[]> {
    const result = await this.knex.raw<{ rows: EntryRow[] }>(
      `SELECT ${COLUMNS.join(", ")} FROM shopping_list_entries WHERE household_id = ? ${ORDER}`,
      [householdId],
    );
    return result.rows.map(toEntry);
  }

  async change<T>(householdId: string, changer: ShoppingListChanger<T>): Promise<{ result: T } | undefined> {
    return this.knex
      .transaction((trx) => changeShoppingList(trx, householdId, changer))
      .catch((error: unknown) => {
        // The use case checked the freezer and compartment; one removed since fails the item insert.
        if (isForeignKeyViolation(error) && /freezer_items/.test(String((error as { table?: string }).table))) {
          throw new InvalidItemPlacementError([
            {
              path: "compartmentId",
              message: "The freezer or compartment was removed while the items were being saved",
            },
          ]);
        }
        throw error;
      });
  }
}

/**
 * Runs `changer` on the household's list under the list's lock and writes what it returns, in
 * `trx`: the repository's writes, and an import's commit point (which adds its entries with the
 * rest of the import). Undefined when the household does not exist.
 */
export async function changeShoppingList<T>(
  trx: Knex.Transaction,
  householdId: string,
  changer: ShoppingListChanger<T>,
): Promise<{ result: T } | undefined> {
  // The list's lock: writers of one household's list queue here. NO KEY UPDATE, so item
  // inserts (whose foreign key takes KEY SHARE) never wait for it; a household delete
  // (FOR UPDATE) waits, then finds no list to change.
  const household = await trx.raw<{ rows: unknown[] }>("SELECT id FROM households WHERE id = ? FOR NO KEY UPDATE", [
    householdId,
  ]);
  if (household.rows.length === 0) return undefined;
  const current = await trx.raw<{ rows: EntryRow[] }>(
    `SELECT ${COLUMNS.join(", ")} FROM shopping_list_entries WHERE household_id = ? ${ORDER}`,
    [householdId],
  );
  const change = changer(current.rows.map(toEntry));
  const items = change.items ?? [];
  for (let start = 0; start < items.length; start += CHUNK) {
    await trx("freezer_items").insert(items.slice(start, start + CHUNK).map(toItemRow));
  }
  const remove = change.remove ?? [];
  for (let start = 0; start < remove.length; start += CHUNK) {
    await trx("shopping_list_entries")
      .where({ household_id: householdId })
      .whereIn("id", remove.slice(start, start + CHUNK))
      .delete();
  }
  const save = change.save ?? [];
  for (let start = 0; start < save.length; start += CHUNK) {
    await trx("shopping_list_entries")
      .insert(save.slice(start, start + CHUNK).map(toRow))
      .onConflict("id")
      .merge(COLUMNS.filter((column) => !["id", "household_id", "created_at", "created_by"].includes(column)));
  }
  const events = change.events ?? [];
  for (let start = 0; start < events.length; start += CHUNK) {
    await writeOutboxEvents(trx, events.slice(start, start + CHUNK));
  }
  return { result: change.result };
}
