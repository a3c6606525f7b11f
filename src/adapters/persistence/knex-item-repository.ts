import type { Knex } from "knex";
import type { ChangeLogEntry, ChangeLogEntryView } from "../../domain/inventory/change-log-entry.js";
import { InvalidItemPlacementError } from "../../domain/inventory/item-errors.js";
import { PREPARED } from "./pg-prepared-statements.js";
import {
  type FreezerItem,
  type FreezerItemView,
  type ItemSortField,
  searchesInsideWords,
  searchTerms,
} from "../../domain/inventory/freezer-item.js";
import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { InvalidItemCategoryError } from "../../domain/inventory/item-category.js";
import type { ItemUnit } from "../../domain/inventory/item-unit.js";
import type {
  ItemListQuery,
  ItemPage,
  ItemRepository,
  ItemUpdater,
  DeleteCheck,
  MemberCreate,
  MemberItem,
  MemberRead,
} from "../../ports/item-repository.js";
import type { ItemListCache } from "./item-list-cache.js";
import { type OutboxInsert, outboxRow, writeOutboxEvents } from "./knex-inventory-outbox.js";
import { isDeadlock, isForeignKeyViolation, retrying, toDate, toDateOrNull } from "./knex-rows.js";
import { numbered, queryNumbered } from "./sql-statements.js";

export interface ItemRow {
  id: string;
  household_id: string;
  freezer_id: string;
  compartment_id: string;
  name: string;
  quantity: number | string;
  unit: string;
  category_id: string | null;
  notes: string | null;
  stored_at: Date | string | null;
  expires_at: Date | string | null;
  barcode: string | null;
  deleted_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  created_by: string;
  updated_by: string;
  photo_updated_at: Date | string | null;
}

interface ItemViewRow extends ItemRow {
  created_by_email: string;
  created_by_name: string;
  updated_by_email: string;
  updated_by_name: string;
}

/** An item with its users and its row version (`xmin`), read for an optimistic update. */
interface VersionedViewRow extends ItemViewRow {
  row_version: string;
}

/**
 * A household's list revision, the sum of its counter shards (see
 * migrations/20261125130000_household_item_counters.ts); null for a household without
 * counters. Completed with the household id it compares to.
 */
const HOUSEHOLD_REVISION =
  "SELECT sum(c.revision)::text AS revision FROM household_item_counters c WHERE c.household_id";

/**
 * A household's whole list (or archive), in any order: its best plan is the same for every
 * household, so PostgreSQL may keep it. Searches and filters are planned for their values: a
 * common word or a large compartment needs another plan than a rare one.
 */
function wholeList(query: ItemListQuery): boolean {
  return (
    !query.search &&
    query.freezerId === undefined &&
    query.compartmentIds === undefined &&
    query.categoryId === undefined &&
    query.expiresBefore === undefined
  );
}

/** A row of a member's list: the page's columns are null when the page is empty. */
interface MemberListRow {
  id: string | null;
  total?: number | string;
  list_revision: string | number | null;
  list_total?: number | string;
}

/** Newest change first; the fields of one change by name (byte order, as in memory). */
const HISTORY_ORDER = `ORDER BY l.changed_at DESC, l.field_name COLLATE "C", l.id`;

interface ChangeRow {
  id: string;
  item_id: string;
  field_name: string;
  old_value: string | null;
  new_value: string | null;
  changed_at: Date | string;
  changed_by: string;
  changed_by_email: string;
  changed_by_name: string;
}

const ITEM_COLUMNS = `i.id, i.household_id, i.freezer_id, i.compartment_id, i.name, i.quantity, i.unit, i.category_id,
  i.notes, i.stored_at, i.expires_at, i.barcode, i.deleted_at, i.created_at, i.updated_at, i.created_by, i.updated_by,
  i.photo_updated_at`;

// One query with both users joined: the API never needs a second round trip per item.
const USER_COLUMNS = `cu.email AS created_by_email, cu.name AS created_by_name,
  uu.email AS updated_by_email, uu.name AS updated_by_name`;
const USER_JOINS = `JOIN users cu ON cu.id = i.created_by
JOIN users uu ON uu.id = i.updated_by`;
const VIEW_SELECT = `SELECT ${ITEM_COLUMNS}, ${USER_COLUMNS}
FROM freezer_items i
${USER_JOINS}`;
/** The view with the row's version (`xmin`), which an optimistic update writes against. */
const VERSIONED_VIEW_SELECT = `SELECT i.xmin::text AS row_version, ${ITEM_COLUMNS}, ${USER_COLUMNS}
FROM freezer_items i
${USER_JOINS}`;
/**
 * {@link VERSIONED_VIEW_SELECT} of one item (id, household), its row locked FOR UPDATE. The lock
 * is taken in the CTE, on the item alone: with the users joined in, a row whose updater changed
 * while this statement waited for its lock fails PostgreSQL's recheck of the join against the
 * user row read before the wait, and the item would read as missing.
 */
const LOCKED_VIEW_SELECT = numbered(`WITH i AS (
  SELECT *, xmin::text AS row_version FROM freezer_items WHERE id = ? AND household_id = ? FOR UPDATE
)
SELECT i.row_version, ${ITEM_COLUMNS}, ${USER_COLUMNS}
FROM i
${USER_JOINS}`);

// Names sort by name_folded, hearth_search_text of the name (unaccented, lower-case, punctuation as spaces: "Hähnchen"
// before "Himbeeren") in byte order, which PGlite and PostgreSQL compute alike whatever their
// locale (PGlite has no ICU collations); the name as stored and the id break ties.
// Only nullable columns get NULLS LAST (items without the value last both ways); on the
// others it would stop PostgreSQL from reading the order straight off an index.
const SORT_COLUMNS: Record<ItemSortField, { column: string; nullable: boolean }> = {
  createdAt: { column: "i.created_at", nullable: false },
  name: { column: `i.name_folded COLLATE "C"`, nullable: false },
  expiresAt: { column: "i.expires_at", nullable: true },
  storedAt: { column: "i.stored_at", nullable: true },
  quantity: { column: "i.quantity", nullable: false },
};

export function toItem(row: ItemRow): FreezerItem {
  return {
    id: row.id,
    householdId: row.household_id,
    freezerId: row.freezer_id,
    compartmentId: row.compartment_id,
    name: row.name,
    quantity: Number(row.quantity),
    // The column's CHECK holds it to ITEM_UNITS.
    unit: row.unit as ItemUnit,
    categoryId: row.category_id,
    notes: row.notes,
    storedAt: toDateOrNull(row.stored_at),
    expiresAt: toDateOrNull(row.expires_at),
    barcode: row.barcode ?? null,
    deletedAt: toDateOrNull(row.deleted_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    createdById: row.created_by,
    updatedById: row.updated_by,
    photoUpdatedAt: toDateOrNull(row.photo_updated_at),
  };
}

function toView(row: ItemViewRow): FreezerItemView {
  return {
    ...toItem(row),
    createdBy: { id: row.created_by, email: row.created_by_email, name: row.created_by_name },
    updatedBy: { id: row.updated_by, email: row.updated_by_email, name: row.updated_by_name },
  };
}

export function toRow(item: FreezerItem): ItemRow {
  return {
    id: item.id,
    household_id: item.householdId,
    freezer_id: item.freezerId,
    compartment_id: item.compartmentId,
    name: item.name,
    quantity: item.quantity,
    unit: item.unit,
    category_id: item.categoryId,
    notes: item.notes,
    stored_at: item.storedAt,
    expires_at: item.expiresAt,
    barcode: item.barcode,
    deleted_at: item.deletedAt,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    created_by: item.createdById,
    updated_by: item.updatedById,
    photo_updated_at: item.photoUpdatedAt ?? null,
  };
}

export function changeRow(change: ChangeLogEntry) {
  return {
    id: change.id,
    item_id: change.itemId,
    field_name: change.fieldName,
    old_value: change.oldValue,
    new_value: change.newValue,
    changed_at: change.changedAt,
    changed_by: change.changedById,
  };
}

// The search goes through hearth_search_text, the very function the indexed names went
// through, so whatever unaccent folds (or leaves alone: Hangul, kana, Devanagari, й) is folded
// alike on both sides. plainto_tsquery reads every character as text, never as an operator;
// each of its lexemes then gets the prefix marker (lexemes hold no quotes: hearth_search_text
// turns ASCII punctuation into spaces). Immutable all the way, so the planner folds it to a
// constant and can use the GIN index.
const PREFIX_SEARCH_QUERY = `regexp_replace(plainto_tsquery('simple', hearth_search_text(?))::text, '''( |$)', ''':*\\1', 'g')::tsquery`;
const WHOLE_WORD_QUERY = "plainto_tsquery('simple', hearth_search_text(?))";
// A search word of three characters or more is also found inside words ("eis" in
// "Vanilleeis"), through the trigram index on the stored folded name (migration
// 20261125125000). The folded word holds no LIKE wildcard: hearth_search_text turns ASCII
// punctuation, `%`, `_` and `\` included, into spaces.
const INFIX_SEARCH_CONDITION = "i.name_folded LIKE '%' || hearth_search_text(?) || '%'";
/** Per search word: 2 when it is a whole word of the name, 1 when it begins one, 0 inside one. */
const WORD_RANK = `(i.name_search @@ ${WHOLE_WORD_QUERY})::int + (i.name_search @@ ${PREFIX_SEARCH_QUERY})::int`;

/** Creates that PostgreSQL aborts in a deadlock are tried this often. */
const CREATE_ATTEMPTS = 3;

// The foreign keys of freezer_items that point at where an item is kept, by the request
// field a caller would correct. PostgreSQL names inline REFERENCES <table>_<column>_fkey; the
// freezer and compartment keys are composite (migration 20261125100000) and named there.
const PLACEMENT_KEYS: Record<string, { path: string; message: string }> = {
  freezer_items_compartment_of_freezer_fkey: {
    path: "compartmentId",
    message: "The compartment was removed while the item was being saved",
  },
  freezer_items_freezer_of_household_fkey: {
    path: "freezerId",
    message: "The freezer was removed while the item was being saved",
  },
  freezer_items_household_id_fkey: {
    path: "freezerId",
    message: "The household was removed while the item was being saved",
  },
};

/**
 * The use cases check the placement before writing, but a freezer, compartment or
 * household deleted in between (it was still empty) makes the write fail on its foreign
 * key. That is the same answer as a placement that never existed, not a server error.
 */
function vanishedPlacement(error: unknown): InvalidItemPlacementError | InvalidItemCategoryError | undefined {
  if (!isForeignKeyViolation(error)) return undefined;
  if ((error as { constraint?: string }).constraint === "freezer_items_category_id_fkey") {
    return new InvalidItemCategoryError("The category was removed while the item was being saved");
  }
  const detail = PLACEMENT_KEYS[(error as { constraint?: string }).constraint ?? ""];
  return detail ? new InvalidItemPlacementError([detail]) : undefined;
}

/** The columns an insert writes, in the order createForMember binds them (name_search and name_folded are generated). */
const INSERT_COLUMNS = [
  "id",
  "household_id",
  "freezer_id",
  "compartment_id",
  "name",
  "quantity",
  "unit",
  "category_id",
  "notes",
  "stored_at",
  "expires_at",
  "barcode",
  "deleted_at",
  "created_at",
  "updated_at",
  "created_by",
  "updated_by",
  "photo_updated_at",
] as const satisfies readonly (keyof ItemRow)[];

/** What an update may change: everything but the id, household, creation time and creator. */
const UPDATE_COLUMNS = INSERT_COLUMNS.filter(
  (column) => !["id", "household_id", "created_at", "created_by"].includes(column),
);

/** Parameters of these columns are typed in SQL: in INSERT … SELECT and SET with a CTE PostgreSQL cannot infer them. */
const COLUMN_CASTS: Partial<Record<keyof ItemRow, string>> = {
  quantity: "::double precision",
  stored_at: "::timestamptz",
  expires_at: "::timestamptz",
  deleted_at: "::timestamptz",
  created_at: "::timestamptz",
  updated_at: "::timestamptz",
  photo_updated_at: "::timestamptz",
};

/**
 * A CTE that writes the outbox rows of a change when the CTE `written` wrote a row (nothing
 * otherwise), for statements that change an item and emit its events together.
 */
function outboxCte(events: number, written: string): string {
  if (events === 0) return "";
  return `, outbox AS (
  INSERT INTO inventory_outbox (id, household_id, type, occurred_at, event)
  SELECT e.id, e.household_id, e.type, e.occurred_at::timestamptz, e.event
    FROM (VALUES ${Array.from({ length: events }, () => "(?, ?, ?, ?, ?)").join(", ")}) AS e(id, household_id, type, occurred_at, event)
   WHERE EXISTS (SELECT 1 FROM ${written})
)`;
}

/** The bindings of one row of {@link outboxCte}, in its column order. */
const outboxBindings = (event: OutboxInsert) => [
  event.id,
  event.household_id,
  event.type,
  event.occurred_at,
  event.event,
];

/** A parameterised SQL fragment. */
interface Sql {
  text: string;
  bindings: (string | number | Date)[];
}

/**
 * The household counter that holds a list's total when nothing but the archive flag narrows
 * it (`household_item_counters`, kept by the statements that write items); undefined when a
 * filter or a search does, and the total is counted.
 */
export function counterColumn(query: ItemListQuery): "active" | "archived" | undefined {
  const narrowed =
    query.freezerId !== undefined ||
    query.categoryId !== undefined ||
    Boolean(query.compartmentIds?.length) ||
    query.expiresBefore !== undefined ||
    Boolean(query.search?.trim());
  if (narrowed) return undefined;
  return query.archived ? "archived" : "active";
}

/**
 * The exact total of a list without a search, as a scalar subquery: the household's counter
 * when nothing narrows the list, else a count of the matches (with filters on placement and
 * expiry an index-only scan of `freezer_items_household_placement_idx`).
 */
export function buildItemTotalSql(query: ItemListQuery): Sql {
  const column = counterColumn(query);
  if (column) {
    return {
      text: `SELECT COALESCE(sum(${column}), 0) AS total FROM household_item_counters WHERE household_id = ?`,
      bindings: [query.householdId],
    };
  }
  return buildItemListSql(query).count;
}

/**
 * The SQL of one list request. Without a search: the page query and a count query (an
 * index-only scan). With a search every match has to be read anyway to rank it, so the page
 * query also carries the total (`count(*) OVER ()`) and `count` is only needed when the
 * page is past the end. Exported so the benchmark replays exactly what the API runs.
 */
export function buildItemListSql(query: ItemListQuery): { page: Sql; count: Sql; countInPage: boolean } {
  const conditions = ["i.household_id = ?", query.archived ? "i.deleted_at IS NOT NULL" : "i.deleted_at IS NULL"];
  const bindings: Sql["bindings"] = [query.householdId];
  if (query.freezerId !== undefined) {
    conditions.push("i.freezer_id = ?");
    bindings.push(query.freezerId);
  }
  if (query.compartmentIds?.length) {
    conditions.push(`i.compartment_id IN (${query.compartmentIds.map(() => "?").join(", ")})`);
    bindings.push(...query.compartmentIds);
  }
  if (query.categoryId === null) {
    conditions.push("i.category_id IS NULL");
  } else if (query.categoryId !== undefined) {
    conditions.push("i.category_id = ?");
    bindings.push(query.categoryId);
  }
  if (query.expiresBefore) {
    conditions.push("i.expires_at < ?");
    bindings.push(query.expiresBefore);
  }
  const words = query.search?.trim() ? searchTerms(query.search) : undefined;
  if (words) {
    if (words.length === 0) {
      // Only punctuation: it is plain text, and no name word can match it.
      conditions.push("FALSE");
    } else {
      const short = words.filter((word) => !searchesInsideWords(word));
      if (short.length > 0) {
        conditions.push(`i.name_search @@ ${PREFIX_SEARCH_QUERY}`);
        bindings.push(short.join(" "));
      }
      for (const word of words.filter(searchesInsideWords)) {
        conditions.push(INFIX_SEARCH_CONDITION);
        bindings.push(word);
      }
    }
  }
  const where = conditions.join(" AND ");
  const count: Sql = { text: `SELECT count(*) AS total FROM freezer_items i WHERE ${where}`, bindings };
  const paging = [query.limit, (query.page - 1) * query.limit];

  if ((!words || words.length === 0) && query.archived && !query.sort) {
    return {
      page: {
        text: `${VIEW_SELECT} WHERE ${where} ORDER BY i.deleted_at DESC, i.id DESC LIMIT ? OFFSET ?`,
        bindings: [...bindings, ...paging],
      },
      count,
      countInPage: false,
    };
  }
  if (!words || words.length === 0) {
    const field = query.sort ?? "createdAt";
    const direction = (query.order ?? "desc") === "asc" ? "ASC" : "DESC";
    const { column, nullable } = SORT_COLUMNS[field];
    const tieBreak = field === "name" ? `, i.name COLLATE "C" ${direction}` : "";
    const orderBy = `${column} ${direction}${nullable ? " NULLS LAST" : ""}${tieBreak}, i.id ${direction}`;
    return {
      page: {
        text: `${VIEW_SELECT} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
        bindings: [...bindings, ...paging],
      },
      count,
      countInPage: false,
    };
  }

  // Sort keys are computed once in the inner query (only ids and keys are carried through the
  // window and the sort, which keeps the one pass over all matches narrow), then the page's
  // rows are joined back with their users.
  const keys: { expression: string; order: string }[] = [];
  const rankBindings: string[] = [];
  if (query.sort) {
    const direction = (query.order ?? "desc") === "asc" ? "ASC" : "DESC";
    const { column, nullable } = SORT_COLUMNS[query.sort];
    keys.push({ expression: column, order: `${direction}${nullable ? " NULLS LAST" : ""}` });
    if (query.sort === "name") keys.push({ expression: `i.name COLLATE "C"`, order: direction });
    keys.push({ expression: "i.id", order: direction });
  } else {
    // Relevance: whole words before word beginnings before matches inside words (same rule in memory).
    keys.push({ expression: words.map(() => WORD_RANK).join(" + "), order: "DESC" });
    rankBindings.push(...words.flatMap((word) => [word, word]));
    keys.push({ expression: SORT_COLUMNS.name.column, order: "ASC" });
    keys.push({ expression: `i.name COLLATE "C"`, order: "ASC" });
    keys.push({ expression: "i.id", order: "ASC" });
  }
  const keyColumns = keys.map((key, index) => `${key.expression} AS k${index}`).join(", ");
  const innerOrder = keys.map((key, index) => `k${index} ${key.order}`).join(", ");
  const outerOrder = keys.map((key, index) => `p.k${index} ${key.order}`).join(", ");
  return {
    page: {
      text: `SELECT ${ITEM_COLUMNS}, ${USER_COLUMNS}, p.total
FROM (
  SELECT ${keyColumns}, count(*) OVER () AS total
  FROM freezer_items i WHERE ${where}
  ORDER BY ${innerOrder} LIMIT ? OFFSET ?
) p
JOIN freezer_items i ON i.id = p.k${keys.length - 1}
${USER_JOINS}
ORDER BY ${outerOrder}`,
      bindings: [...rankBindings, ...bindings, ...paging],
    },
    count,
    countInPage: true,
  };
}

/** Statement shapes kept per builder; shapes come from field and event counts, so few ever exist. */
const STATEMENT_SHAPES_KEPT = 64;

/** `build` for counts it has seen before answers from memory; past the cap it builds each time. */
function memoizedBy<Counts extends number[]>(build: (...counts: Counts) => string): (...counts: Counts) => string {
  const built = new Map<string, string>();
  return (...counts) => {
    const key = counts.join(",");
    let text = built.get(key);
    if (text === undefined) {
      text = build(...counts);
      if (built.size < STATEMENT_SHAPES_KEPT) built.set(key, text);
    }
    return text;
  };
}

/**
 * The statement that adds an item for a member, with its outbox rows. Its text depends only on
 * how many events it writes, so each shape is built and numbered (`$n`) once: a write then spends
 * its time on its values, not on assembling (and collecting) a 3 kB string or on knex rewriting it.
 */
const createStatement = memoizedBy((events: number) =>
  numbered(`WITH member AS (
  SELECT 1 FROM memberships WHERE household_id = ? AND user_id = ?
), placement AS (
  SELECT 1 FROM freezers f JOIN compartments c ON c.freezer_id = f.id
   WHERE f.id = ? AND f.household_id = ? AND c.id = ?
), category AS (
  SELECT 1 WHERE ?::text IS NULL OR EXISTS (SELECT 1 FROM item_categories k WHERE k.id = ? AND k.household_id = ?)
), ins AS (
  INSERT INTO freezer_items (${INSERT_COLUMNS.join(", ")})
  SELECT ${INSERT_COLUMNS.map((column) => `?${COLUMN_CASTS[column] ?? ""}`).join(", ")}
   WHERE EXISTS (SELECT 1 FROM member) AND EXISTS (SELECT 1 FROM placement) AND EXISTS (SELECT 1 FROM category)
  RETURNING *
)${outboxCte(events, "ins")}
SELECT EXISTS (SELECT 1 FROM member) AS member, EXISTS (SELECT 1 FROM placement) AS placed,
       EXISTS (SELECT 1 FROM category) AS categorised,
       ${ITEM_COLUMNS}, ${USER_COLUMNS}
  FROM (SELECT 1) AS one
  LEFT JOIN ins i ON true
  LEFT JOIN users cu ON cu.id = i.created_by
  LEFT JOIN users uu ON uu.id = i.updated_by`),
);

/** The optimistic update of one item (see `updateFrom`) with `changes` change-log rows and `events` outbox rows. */
const updateStatement = memoizedBy((changes: number, events: number) =>
  numbered(`WITH upd AS (
  UPDATE freezer_items SET ${UPDATE_COLUMNS.map((column) => `${column} = ?${COLUMN_CASTS[column] ?? ""}`).join(", ")}
   WHERE id = ? AND household_id = ? AND xmin = ?::xid
  RETURNING *
)${
    changes > 0
      ? `, log AS (
  INSERT INTO item_change_log (id, item_id, field_name, old_value, new_value, changed_at, changed_by)
  SELECT c.id, c.item_id, c.field_name, c.old_value, c.new_value, c.changed_at::timestamptz, c.changed_by
    FROM (VALUES ${Array.from({ length: changes }, () => "(?, ?, ?, ?, ?, ?, ?)").join(", ")})
      AS c(id, item_id, field_name, old_value, new_value, changed_at, changed_by)
   WHERE EXISTS (SELECT 1 FROM upd)
)`
      : ""
  }${outboxCte(events, "upd")}
SELECT ${ITEM_COLUMNS}, ${USER_COLUMNS}
  FROM upd i
  JOIN users cu ON cu.id = i.created_by
  JOIN users uu ON uu.id = i.updated_by`),
);

/** One item with its users, by id and household. */
const ITEM_BY_ID = numbered(`${VIEW_SELECT} WHERE i.id = ? AND i.household_id = ?`);

/** One item (id, household, user): a row when the user is a member, its columns null when the item is not there. */
const MEMBER_ITEM = numbered(`SELECT v.* FROM memberships m
         LEFT JOIN LATERAL (${VIEW_SELECT} WHERE i.id = ? AND i.household_id = m.household_id) v ON true
        WHERE m.household_id = ? AND m.user_id = ?`);

/** {@link MEMBER_ITEM} with the item's row version, for an optimistic update. */
const MEMBER_VERSIONED_ITEM = numbered(`SELECT v.* FROM memberships m
         LEFT JOIN LATERAL (
           ${VERSIONED_VIEW_SELECT}
            WHERE i.id = ? AND i.household_id = m.household_id
         ) v ON true
        WHERE m.household_id = ? AND m.user_id = ?`);

/** An item's history (id, household, user): no row for a non-member, `found` null when the item is not there. */
const MEMBER_HISTORY =
  numbered(`SELECT f.id AS found, l.id, l.item_id, l.field_name, l.old_value, l.new_value, l.changed_at, l.changed_by,
         u.email AS changed_by_email, u.name AS changed_by_name
       FROM memberships m
       LEFT JOIN freezer_items f ON f.id = ? AND f.household_id = m.household_id
       LEFT JOIN item_change_log l ON l.item_id = f.id
       LEFT JOIN users u ON u.id = l.changed_by
       WHERE m.household_id = ? AND m.user_id = ?
       ${HISTORY_ORDER}`);

/** A member's household's item revision (household, user): no row for a non-member. */
const MEMBER_REVISION = numbered(`SELECT r.revision FROM memberships m
         LEFT JOIN LATERAL (${HOUSEHOLD_REVISION} = m.household_id) r ON true
        WHERE m.household_id = ? AND m.user_id = ?`);

export interface KnexItemRepositoryOptions {
  /** Reuses list pages while the household's item revision stands; absent: every list queries. */
  listCache?: ItemListCache;
}

/** Freezer items on PostgreSQL or PGlite through knex. */
export class KnexItemRepository implements ItemRepository {
  private readonly listCache: ItemListCache | undefined;

  constructor(
    private readonly knex: Knex,
    options: KnexItemRepositoryOptions = {},
  ) {
    this.listCache = options.listCache && options.listCache.capacity > 0 ? options.listCache : undefined;
  }

  async create(item: FreezerItem, events?: InventoryEvent[]): Promise<FreezerItemView> {
    const insert = async (db: Knex | Knex.Transaction) => {
      await db("freezer_items").insert(toRow(item));
      await writeOutboxEvents(db, events);
    };
    await (events?.length ? this.knex.transaction(insert) : insert(this.knex)).catch((error: unknown) => {
      throw vanishedPlacement(error) ?? error;
    });
    return (await this.findById(item.householdId, item.id))!;
  }

  createForMember(userId: string, item: FreezerItem, events: InventoryEvent[] = []): Promise<MemberCreate> {
    // Aborted by PostgreSQL against a household delete it waited for (see
    // KnexHouseholdRepository.delete): run again, it then finds the household gone.
    return retrying(CREATE_ATTEMPTS, isDeadlock, () => this.createOnce(userId, item, events));
  }

  private async createOnce(userId: string, item: FreezerItem, events: InventoryEvent[]): Promise<MemberCreate> {
    const row = toRow(item);
    const outbox = events.map(outboxRow);
    const rows = await queryNumbered<
      Omit<ItemViewRow, "id"> & { id: string | null; member: boolean; placed: boolean; categorised: boolean }
    >(this.knex, createStatement(outbox.length), [
      item.householdId,
      userId,
      item.freezerId,
      item.householdId,
      item.compartmentId,
      item.categoryId,
      item.categoryId,
      item.householdId,
      ...INSERT_COLUMNS.map((column) => row[column]),
      ...outbox.flatMap(outboxBindings),
    ]).catch((error: unknown) => {
      throw vanishedPlacement(error) ?? error;
    });
    const answer = rows[0];
    if (!answer?.member) return { refused: "not-member" };
    if (!answer.placed) return { refused: "placement" };
    if (!answer.categorised || answer.id === null) return { refused: "category" };
    return { created: toView({ ...answer, id: answer.id }) };
  }

  async insertMany(items: FreezerItem[]): Promise<void> {
    // 16 columns × 1000 rows stays well under PostgreSQL's 65535 bind parameters.
    for (let start = 0; start < items.length; start += 1000) {
      await this.knex("freezer_items").insert(items.slice(start, start + 1000).map(toRow));
    }
  }

  async findById(householdId: string, itemId: string, db: Knex | Knex.Transaction = this.knex) {
    const [row] = await queryNumbered<ItemViewRow>(db, ITEM_BY_ID, [itemId, householdId]);
    return row ? toView(row) : undefined;
  }

  async findForMember({ userId, householdId, itemId }: MemberItem): Promise<MemberRead<FreezerItemView> | undefined> {
    const [row] = await queryNumbered<Omit<ItemViewRow, "id"> & { id: string | null }>(this.knex, MEMBER_ITEM, [
      itemId,
      householdId,
      userId,
    ]);
    if (!row) return undefined;
    return { found: row.id === null ? undefined : toView({ ...row, id: row.id }) };
  }

  async historyForMember(ref: MemberItem): Promise<MemberRead<ChangeLogEntryView[]> | undefined> {
    const { userId, householdId, itemId } = ref;
    const rows = await queryNumbered<Omit<ChangeRow, "id"> & { id: string | null; found: string | null }>(
      this.knex,
      MEMBER_HISTORY,
      [itemId, householdId, userId],
    );
    const first = rows[0];
    if (!first) return undefined;
    if (first.found === null) return { found: undefined };
    return { found: rows.flatMap((row) => (row.id === null ? [] : [toChangeView({ ...row, id: row.id })])) };
  }

  async list(query: ItemListQuery): Promise<ItemPage> {
    if (!this.listCache) return this.queryList(query);
    // The revision is read before the page: a page computed after a concurrent write is then
    // newer than the revision it is filed under, never older, so a reader can only get a
    // page at least as fresh as the revision it saw.
    const revision = await this.itemRevision(query.householdId);
    if (revision === undefined) return this.queryList(query);
    return this.cachedList(query, revision);
  }

  async listForMember(userId: string, query: ItemListQuery): Promise<ItemPage | undefined> {
    // A page that cannot be in the cache is read with its membership, revision and total in
    // one statement; one that may be costs a revision check first (and nothing more on a hit).
    if (!this.listCache?.holds(query)) return this.queryMemberList(userId, query);
    // One statement answers both "is this a member" and "which revision is current".
    const [row] = await queryNumbered<{ revision: string | number | null }>(this.knex, MEMBER_REVISION, [
      query.householdId,
      userId,
    ]);
    if (!row) return undefined;
    if (row.revision === null) return this.queryList(query);
    return this.cachedList(query, String(row.revision));
  }

  /**
   * Membership, the household's item revision, the page and (without a search) the exact
   * total in one round trip: a statement reads one snapshot, so the page is exactly as of the
   * revision it is cached under. Only an empty page past the first of a search needs a
   * second statement.
   */
  private async queryMemberList(userId: string, query: ItemListQuery): Promise<ItemPage | undefined> {
    const sql = buildItemListSql(query);
    const total = sql.countInPage ? undefined : buildItemTotalSql(query);
    const result = this.knex.raw<{ rows: MemberListRow[] }>(
      `WITH member AS (
  SELECT r.revision FROM memberships m
    LEFT JOIN LATERAL (${HOUSEHOLD_REVISION} = m.household_id) r ON true
   WHERE m.household_id = ? AND m.user_id = ?
), page AS (
  SELECT q.*, row_number() OVER () AS list_ordinal FROM (${sql.page.text}) q
)
SELECT page.*, member.revision AS list_revision${total ? `, (${total.text}) AS list_total` : ""}
FROM member LEFT JOIN page ON true
ORDER BY page.list_ordinal`,
      [query.householdId, userId, ...sql.page.bindings, ...(total?.bindings ?? [])],
    );
    const answer = await (wholeList(query) ? result.options(PREPARED) : result);
    const first = answer.rows[0];
    if (!first) return undefined;
    const rows = first.id === null ? [] : (answer.rows as (MemberListRow & ItemViewRow)[]);
    const items = rows.map(toView);
    let page: ItemPage;
    if (total) {
      page = { items, total: Number(first.list_total ?? 0) };
    } else if (rows[0]) {
      page = { items, total: Number(rows[0].total) };
    } else {
      page = { items, total: query.page > 1 ? await this.countTotal(query) : 0 };
    }
    if (this.listCache && first.list_revision !== null) this.listCache.set(query, String(first.list_revision), page);
    return page;
  }

  private async cachedList(query: ItemListQuery, revision: string): Promise<ItemPage> {
    const cached = this.listCache?.get(query, revision);
    if (cached) return cached;
    const page = await this.queryList(query);
    this.listCache?.set(query, revision, page);
    return page;
  }

  private async itemRevision(householdId: string): Promise<string | undefined> {
    const result = await this.knex.raw<{ rows: { revision: string | number | null }[] }>(`${HOUSEHOLD_REVISION} = ?`, [
      householdId,
    ]);
    const revision = result.rows[0]?.revision;
    return revision === null || revision === undefined ? undefined : String(revision);
  }

  /** The exact total of `query` (see {@link buildItemTotalSql}; with a search, a count of the matches). */
  private async countTotal(query: ItemListQuery): Promise<number> {
    const list = buildItemListSql(query);
    const sql = list.countInPage ? list.count : buildItemTotalSql(query);
    const result = await this.knex.raw<{ rows: { total: number | string }[] }>(sql.text, sql.bindings);
    return Number(result.rows[0]?.total ?? 0);
  }

  private async queryList(query: ItemListQuery): Promise<ItemPage> {
    const sql = buildItemListSql(query);
    if (sql.countInPage) {
      const page = await this.knex.raw<{ rows: (ItemViewRow & { total: number | string })[] }>(
        sql.page.text,
        sql.page.bindings,
      );
      // Past the last page no row carries the total, so ask for it separately.
      const total = page.rows[0] ? Number(page.rows[0].total) : query.page > 1 ? await this.countTotal(query) : 0;
      return { items: page.rows.map(toView), total };
    }
    const [page, total] = await Promise.all([
      this.knex.raw<{ rows: ItemViewRow[] }>(sql.page.text, sql.page.bindings),
      this.countTotal(query),
    ]);
    return { items: page.rows.map(toView), total };
  }

  async listArchived(householdId: string): Promise<FreezerItemView[]> {
    const result = await this.knex.raw<{ rows: ItemViewRow[] }>(
      `${VIEW_SELECT} WHERE i.household_id = ? AND i.deleted_at IS NOT NULL ORDER BY i.deleted_at DESC, i.id DESC`,
      [householdId],
    );
    return result.rows.map(toView);
  }

  async update(householdId: string, itemId: string, updater: ItemUpdater): Promise<FreezerItemView | undefined> {
    const read = await this.knex.raw<{ rows: VersionedViewRow[] }>(
      `${VERSIONED_VIEW_SELECT} WHERE i.id = ? AND i.household_id = ?`,
      [itemId, householdId],
    );
    return this.updateFrom(read.rows[0], householdId, itemId, updater);
  }

  async updateForMember(ref: MemberItem, updater: ItemUpdater): Promise<MemberRead<FreezerItemView> | undefined> {
    const { userId, householdId, itemId } = ref;
    const [row] = await queryNumbered<Omit<VersionedViewRow, "id"> & { id: string | null }>(
      this.knex,
      MEMBER_VERSIONED_ITEM,
      [itemId, householdId, userId],
    );
    if (!row) return undefined;
    const current = row.id === null ? undefined : { ...row, id: row.id };
    return { found: await this.updateFrom(current, householdId, itemId, updater) };
  }

  /**
   * Optimistic first: the update is computed from the row as read, and written, with its
   * change log and outbox rows, by one statement that applies only while the row is still
   * that version (`xmin`). A row changed meanwhile falls back to the locked path, which
   * queues concurrent writers of one item behind a row lock and then writes with the same
   * statement; an item nobody else is writing costs two statements, a contended one four.
   */
  private async updateFrom(
    read: VersionedViewRow | undefined,
    householdId: string,
    itemId: string,
    updater: ItemUpdater,
  ): Promise<FreezerItemView | undefined> {
    if (!read) return undefined;
    const current = toItem(read);
    const { item, changes, events } = updater(current);
    if (item === current && changes.length === 0 && !events?.length) return toView(read);
    const written = await this.writeIfUnchanged(read.row_version, current, item, changes, events ?? []).catch(
      (error: unknown) => {
        throw vanishedPlacement(error) ?? error;
      },
    );
    if (written) return written;
    return this.updateLocked(householdId, itemId, updater).catch((error: unknown) => {
      throw vanishedPlacement(error) ?? error;
    });
  }

  private async writeIfUnchanged(
    version: string,
    current: FreezerItem,
    item: FreezerItem,
    changes: ChangeLogEntry[],
    events: InventoryEvent[],
    db: Knex | Knex.Transaction = this.knex,
  ): Promise<FreezerItemView | undefined> {
    const row = toRow(item);
    const log = changes.map(changeRow);
    const outbox = events.map(outboxRow);
    const [written] = await queryNumbered<ItemViewRow>(db, updateStatement(log.length, outbox.length), [
      ...UPDATE_COLUMNS.map((column) => row[column]),
      current.id,
      current.householdId,
      version,
      ...log.flatMap((entry) => [
        entry.id,
        entry.item_id,
        entry.field_name,
        entry.old_value,
        entry.new_value,
        entry.changed_at,
        entry.changed_by,
      ]),
      ...outbox.flatMap(outboxBindings),
    ]);
    return written ? toView(written) : undefined;
  }

  private async updateLocked(
    householdId: string,
    itemId: string,
    updater: ItemUpdater,
  ): Promise<FreezerItemView | undefined> {
    return this.knex.transaction((trx) => this.updateInTransaction(trx, householdId, itemId, updater));
  }

  /**
   * The locked update inside the caller's transaction (the photo repository writes the
   * images in the same one): locks the item, applies `updater`, writes the item, its change
   * log and events, and reads it back. Undefined when the household has no such item.
   */
  async updateInTransaction(
    trx: Knex.Transaction,
    householdId: string,
    itemId: string,
    updater: ItemUpdater,
  ): Promise<FreezerItemView | undefined> {
    // FOR UPDATE makes concurrent updates of one item queue here, so each sees the previous one's result.
    const [read] = await queryNumbered<VersionedViewRow>(trx, LOCKED_VIEW_SELECT, [itemId, householdId]);
    if (!read) return undefined;
    const current = toItem(read);
    const { item, changes, events } = updater(current);
    if (item === current && changes.length === 0 && !events?.length) return toView(read);
    // The same one statement as the optimistic path: under the lock the version read still
    // stands, so it applies, and the locked path costs four round trips instead of seven.
    const written = await this.writeIfUnchanged(read.row_version, current, item, changes, events ?? [], trx);
    if (!written) throw new Error(`item ${itemId} changed under its row lock`);
    return written;
  }

  async deletePermanently(householdId: string, itemId: string, check: DeleteCheck): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const locked = await trx.raw<{ rows: ItemRow[] }>(
        `SELECT ${ITEM_COLUMNS} FROM freezer_items i WHERE i.id = ? AND i.household_id = ? FOR UPDATE`,
        [itemId, householdId],
      );
      if (!locked.rows[0]) return false;
      const events = check(toItem(locked.rows[0]));
      await trx("freezer_items").where({ id: itemId }).delete();
      await writeOutboxEvents(trx, events || undefined);
      return true;
    });
  }

  async history(itemId: string): Promise<ChangeLogEntryView[]> {
    const result = await this.knex.raw<{ rows: ChangeRow[] }>(
      `SELECT l.id, l.item_id, l.field_name, l.old_value, l.new_value, l.changed_at, l.changed_by,
         u.email AS changed_by_email, u.name AS changed_by_name
       FROM item_change_log l JOIN users u ON u.id = l.changed_by
       WHERE l.item_id = ?
       ${HISTORY_ORDER}`,
      [itemId],
    );
    return result.rows.map(toChangeView);
  }
}

function toChangeView(row: ChangeRow): ChangeLogEntryView {
  return {
    id: row.id,
    itemId: row.item_id,
    fieldName: row.field_name,
    oldValue: row.old_value,
    newValue: row.new_value,
    changedAt: toDate(row.changed_at),
    changedById: row.changed_by,
    changedBy: { id: row.changed_by, email: row.changed_by_email, name: row.changed_by_name },
  };
}
