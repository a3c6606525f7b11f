/**
 * The multi-household scenario of `npm run bench:inventory`: many households of a few items
 * each, requests spread at random over households and their members, so the item-list cache
 * is mostly cold. Seeded with set-based SQL (generate_series) in one transaction, since the
 * owner invariant is checked at commit. Ids are derived from numbers (`h7`, `u7`, `i7-42`),
 * so a request can pick any household, member and item without a lookup.
 */
import { performance } from "node:perf_hooks";
import type pg from "pg";
import { buildItemListSql, buildItemTotalSql } from "../src/adapters/persistence/knex-item-repository.js";
import { JwtTokenService } from "../src/adapters/security/jwt-token-service.js";
import { processFacts, smallMallocPoolsRestart } from "../src/composition/malloc-pools.js";
import type { ItemListQuery } from "../src/ports/item-repository.js";

export const HOUSEHOLDS = Number(process.env.BENCH_HOUSEHOLDS ?? 10_000);
export const ITEMS_PER_HOUSEHOLD = Number(process.env.BENCH_ITEMS_PER_HOUSEHOLD ?? 100);
/** Items per household with a change history (4 entries each). */
const HISTORY_ITEMS = 5;
export const COMMON = "chicken";
export const RARE = "kohlrabi";

const pad = (n: number, width = 8) => String(n).padStart(width, "0");
/** Ids as the API accepts them (a letter, then lower-case letters and digits). */
export const ids = {
  household: (n: number) => `h${pad(n)}`,
  user: (n: number) => `u${pad(n)}`,
  freezer: (n: number) => `f${pad(n)}`,
  compartment: (n: number, position: number) => `c${pad(n)}x${position}`,
  item: (n: number, k: number) => `i${pad(n)}x${pad(k, 3)}`,
};

/** How many households of how many items a run seeds, and random picks among them. */
export class Layout {
  constructor(
    readonly households: number,
    readonly itemsPerHousehold: number,
  ) {}

  /** Household n has two members: its owner u<n> and u<households + n>. */
  memberOf(household: number, pick: number): string {
    return pick % 2 === 0 ? ids.user(household) : ids.user(this.households + household);
  }

  randomHousehold(): number {
    return Math.floor(Math.random() * this.households);
  }

  /** A random live item (every 50th item of a household is archived). */
  randomItem(): number {
    for (;;) {
      const k = Math.floor(Math.random() * this.itemsPerHousehold);
      if (k % 50 !== 49) return k;
    }
  }
}

/** The multi-household run's layout (BENCH_HOUSEHOLDS × BENCH_ITEMS_PER_HOUSEHOLD). */
export const MANY_HOUSEHOLDS = new Layout(HOUSEHOLDS, ITEMS_PER_HOUSEHOLD);

/** A database the raw baseline talks to directly: a node-postgres pool or a PGlite instance. */
export interface RawDb {
  query(text: string, params?: unknown[]): Promise<unknown>;
  /** Runs `body` in one transaction on one connection. */
  transaction(body: (query: RawDb["query"]) => Promise<void>): Promise<void>;
}

/** {@link RawDb} over a node-postgres pool. */
export function pgRaw(pool: pg.Pool): RawDb {
  return {
    query: (text, params) => pool.query(text, params),
    async transaction(body) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await body((text, params) => client.query(text, params));
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

const FOOD_SQL = `(ARRAY['Chicken breast','Beef mince','Peas','Salmon fillet','Ice cream','Bread rolls','Lasagne',
  'Spinach','Chicken curry','Raspberries','Pork sausages','Chips','Vegetable soup','Prawns','Butter','Pesto',
  'Meatballs','Broccoli','Croissants','Chilli con carne'])`;

/** Seeds users, households with their members, a freezer with two compartments each, items and some history. */
export async function seedHouseholds(db: RawDb, layout: Layout = MANY_HOUSEHOLDS): Promise<number> {
  const started = performance.now();
  const HOUSEHOLDS = layout.households;
  const ITEMS_PER_HOUSEHOLD = layout.itemsPerHousehold;
  await db.transaction(async (query) => {
    const client = { query };
    await client.query(
      `INSERT INTO users (id, email, password_hash, name, created_at, updated_at)
       SELECT 'u' || lpad(n::text, 8, '0'), 'user' || n || '@bench.test', 'not-a-hash', 'User ' || n, now(), now()
       FROM generate_series(0, $1::int * 2 - 1) n`,
      [HOUSEHOLDS],
    );
    await client.query(
      `INSERT INTO households (id, name, owner_id, created_at, updated_at)
       SELECT 'h' || lpad(n::text, 8, '0'), 'Home ' || n, 'u' || lpad(n::text, 8, '0'), now(), now() FROM generate_series(0, $1::int - 1) n`,
      [HOUSEHOLDS],
    );
    await client.query(
      `INSERT INTO memberships (id, household_id, user_id, role, joined_at)
       SELECT 'm' || lpad(n::text, 8, '0'), 'h' || lpad(n::text, 8, '0'), 'u' || lpad(n::text, 8, '0'), 'OWNER', now() FROM generate_series(0, $1::int - 1) n
       UNION ALL
       SELECT 'n' || lpad(n::text, 8, '0'), 'h' || lpad(n::text, 8, '0'), 'u' || lpad(($1::int + n)::text, 8, '0'), 'MEMBER', now() FROM generate_series(0, $1::int - 1) n`,
      [HOUSEHOLDS],
    );
    await client.query(
      `INSERT INTO freezers (id, household_id, name, created_at, updated_at)
       SELECT 'f' || lpad(n::text, 8, '0'), 'h' || lpad(n::text, 8, '0'), 'Kitchen', now(), now() FROM generate_series(0, $1::int - 1) n`,
      [HOUSEHOLDS],
    );
    await client.query(
      `INSERT INTO compartments (id, freezer_id, name, position, created_at)
       SELECT 'c' || lpad(n::text, 8, '0') || 'x' || p, 'f' || lpad(n::text, 8, '0'), 'Drawer ' || p, p, now()
       FROM generate_series(0, $1::int - 1) n, generate_series(0, 1) p`,
      [HOUSEHOLDS],
    );
  });
  const client = db;
  {
    // Items in one statement per slice of households, so no single statement holds a million rows in memory.
    const slice = 1000;
    for (let from = 0; from < HOUSEHOLDS; from += slice) {
      await client.query(
        `INSERT INTO freezer_items (id, household_id, freezer_id, compartment_id, name, quantity, notes, stored_at,
           expires_at, deleted_at, created_at, updated_at, created_by, updated_by)
         SELECT 'i' || lpad(n::text, 8, '0') || 'x' || lpad(k::text, greatest(3, length(k::text)), '0'), 'h' || lpad(n::text, 8, '0'), 'f' || lpad(n::text, 8, '0'), 'c' || lpad(n::text, 8, '0') || 'x' || (k % 2),
           CASE WHEN k = 1 THEN 'Kohlrabi gratin' ELSE ${FOOD_SQL}[1 + (n * 7 + k * 13) % 20] END,
           1 + k % 6, NULL, now() - (k || ' days')::interval,
           CASE WHEN k % 10 < 7 THEN now() + ((k * 3) % 300 || ' days')::interval END,
           CASE WHEN k % 50 = 49 THEN now() END,
           now() - ((${ITEMS_PER_HOUSEHOLD} - k) || ' hours')::interval, now() - ((${ITEMS_PER_HOUSEHOLD} - k) || ' hours')::interval,
           'u' || lpad(n::text, 8, '0'), 'u' || lpad(n::text, 8, '0')
         FROM generate_series($1::int, $2::int - 1) n, generate_series(0, $3::int - 1) k`,
        [from, Math.min(HOUSEHOLDS, from + slice), ITEMS_PER_HOUSEHOLD],
      );
    }
    await client.query(
      `INSERT INTO item_change_log (id, item_id, field_name, old_value, new_value, changed_at, changed_by)
       SELECT 'l' || lpad(n::text, 8, '0') || 'x' || lpad(k::text, greatest(3, length(k::text)), '0') || 'x' || e, 'i' || lpad(n::text, 8, '0') || 'x' || lpad(k::text, greatest(3, length(k::text)), '0'), 'quantity', e::text, (e + 1)::text,
         now() - (e || ' minutes')::interval, 'u' || lpad(n::text, 8, '0')
       FROM generate_series(0, $1::int - 1) n, generate_series(0, $2::int - 1) k, generate_series(1, 4) e`,
      [HOUSEHOLDS, HISTORY_ITEMS],
    );
    await client.query("VACUUM ANALYZE");
  }
  return (performance.now() - started) / 1000;
}

/** The JWT secret the bench app processes run with; tokensFor(BENCH_JWT_SECRET) signs their tokens. */
export const BENCH_JWT_SECRET = "bench-secret-0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * What `hearth start` on this Node would add to its own environment: the malloc pools' cap
 * (src/composition/malloc-pools.ts), unless this environment sets MALLOC_ARENA_MAX. The bench
 * apps are forked with an IPC channel, which rules out the restart `hearth start` does, so they
 * get the variable from the start instead.
 */
export function hearthStartMallocEnvironment(): Record<string, string> {
  // This process's facts, as `hearth start` with no Node flags and no parent would have them.
  const decision = smallMallocPoolsRestart({ ...processFacts(), args: ["start"], execArgv: [], hasIpcChannel: false });
  return decision.restart && decision.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: decision.env.MALLOC_ARENA_MAX } : {};
}

/**
 * The environment of a bench app process (bench/inventory-app.mjs) on `databaseUrl`: production
 * mode, rate limits out of the way (the load comes from one address and a few users), counters
 * in memory, only errors logged, and the malloc pools as `hearth start` sets them.
 */
export function benchAppEnvironment(databaseUrl: string, poolSize: number): Record<string, string> {
  return {
    ...hearthStartMallocEnvironment(),
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    BENCH_POOL_SIZE: String(poolSize),
    JWT_SECRET: BENCH_JWT_SECRET,
    JWT_ACCESS_TTL: "1h",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    AUTH_RATE_LIMIT_PER_MINUTE: "1000000000",
    REDIS_URL: "",
    LOG_LEVEL: "error",
  };
}

/** Access tokens for every user, signed as the app signs them (same secret). */
export function tokensFor(secret: string): (user: string) => string {
  const service = new JwtTokenService(secret, 3600);
  const cache = new Map<string, string>();
  return (user) => {
    let token = cache.get(user);
    if (!token) {
      token = service.issueAccessToken(user).token;
      cache.set(user, token);
    }
    return token;
  };
}

export interface HouseholdRequest {
  method: "GET" | "PATCH" | "POST";
  path: string;
  user: string;
  body?: string;
}

export interface HouseholdScenario {
  name: string;
  connections: number;
  request(): HouseholdRequest;
  /** The same work straight through node-postgres (a closed loop of the same concurrency). */
  raw?(db: RawDb): Promise<unknown>;
}

function listScenario(
  layout: Layout,
  name: string,
  query: (household: number) => { path: string; list: ItemListQuery },
  toNative: (sql: { text: string; bindings: readonly unknown[] }) => [string, unknown[]],
): HouseholdScenario {
  return {
    name,
    connections: 32,
    request() {
      const household = layout.randomHousehold();
      return {
        method: "GET",
        path: `/households/${ids.household(household)}/items${query(household).path}`,
        user: layout.memberOf(household, household + layout.randomItem()),
      };
    },
    async raw(pool) {
      const list = query(layout.randomHousehold()).list;
      const sql = buildItemListSql(list);
      const page = toNative(sql.page);
      await Promise.all([
        pool.query(page[0], page[1]),
        ...(sql.countInPage ? [] : [pool.query(...toNative(buildItemTotalSql(list)))]),
      ]);
    },
  };
}

/** The scenarios, in the order they run; writes last so reads see the seeded data. */
export function householdScenarios(
  toNative: (sql: { text: string; bindings: readonly unknown[] }) => [string, unknown[]],
  layout: Layout = MANY_HOUSEHOLDS,
  historyEntries = 4,
): HouseholdScenario[] {
  const { memberOf, randomHousehold, randomItem } = {
    memberOf: (household: number, pick: number) => layout.memberOf(household, pick),
    randomHousehold: () => layout.randomHousehold(),
    randomItem: () => layout.randomItem(),
  };
  const base = (household: number): ItemListQuery => ({ householdId: ids.household(household), page: 1, limit: 20 });
  const expiresBefore = new Date(Date.now() + 60 * 86_400_000).toISOString();
  return [
    listScenario(layout, "list: default page", (h) => ({ path: "", list: base(h) }), toNative),
    listScenario(
      layout,
      `search: common word "${COMMON}"`,
      (h) => ({ path: `?search=${COMMON}`, list: { ...base(h), search: COMMON } }),
      toNative,
    ),
    listScenario(
      layout,
      `search: rare word "${RARE}"`,
      (h) => ({ path: `?search=${RARE}`, list: { ...base(h), search: RARE } }),
      toNative,
    ),
    listScenario(
      layout,
      "filters: compartment + expiresBefore",
      (h) => ({
        path: `?compartmentIds[]=${ids.compartment(h, 0)}&expiresBefore=${encodeURIComponent(expiresBefore)}`,
        list: { ...base(h), compartmentIds: [ids.compartment(h, 0)], expiresBefore: new Date(expiresBefore) },
      }),
      toNative,
    ),
    {
      name: "get one item",
      connections: 32,
      request() {
        const household = randomHousehold();
        return {
          method: "GET",
          path: `/households/${ids.household(household)}/items/${ids.item(household, randomItem())}`,
          user: memberOf(household, randomItem()),
        };
      },
      raw: (pool) => {
        const household = randomHousehold();
        return pool.query(
          `SELECT i.*, cu.email, cu.name, uu.email, uu.name FROM freezer_items i
           JOIN users cu ON cu.id = i.created_by JOIN users uu ON uu.id = i.updated_by
           WHERE i.id = $1 AND i.household_id = $2`,
          [ids.item(household, randomItem()), ids.household(household)],
        );
      },
    },
    {
      name: `history (${historyEntries} entries)`,
      connections: 32,
      request() {
        const household = randomHousehold();
        return {
          method: "GET",
          path: `/households/${ids.household(household)}/items/${ids.item(household, Math.floor(Math.random() * HISTORY_ITEMS))}/history`,
          user: memberOf(household, randomItem()),
        };
      },
      raw: (pool) =>
        pool.query(
          `SELECT l.*, u.email, u.name FROM item_change_log l JOIN users u ON u.id = l.changed_by
           WHERE l.item_id = $1 ORDER BY l.changed_at DESC, l.field_name COLLATE "C", l.id`,
          [ids.item(randomHousehold(), Math.floor(Math.random() * HISTORY_ITEMS))],
        ),
    },
    {
      name: "PATCH different items",
      connections: 32,
      request() {
        const household = randomHousehold();
        return {
          method: "PATCH",
          path: `/households/${ids.household(household)}/items/${ids.item(household, randomItem())}`,
          user: memberOf(household, randomItem()),
          body: JSON.stringify({ quantity: 1 + Math.floor(Math.random() * 1000) }),
        };
      },
      raw: async (pool) => {
        const household = randomHousehold();
        const item = ids.item(household, randomItem());
        await pool.transaction(async (query) => {
          const client = { query };
          await client.query("SELECT * FROM freezer_items WHERE id = $1 AND household_id = $2 FOR UPDATE", [
            item,
            ids.household(household),
          ]);
          await client.query("UPDATE freezer_items SET quantity = $2, updated_at = now() WHERE id = $1", [
            item,
            1 + Math.floor(Math.random() * 1000),
          ]);
          await client.query(
            `INSERT INTO item_change_log (id, item_id, field_name, old_value, new_value, changed_at, changed_by)
             VALUES ($1, $2, 'quantity', '1', '2', now(), $3)`,
            [`raw-${process.hrtime.bigint()}-${Math.random()}`, item, ids.user(household)],
          );
        });
      },
    },
    createScenario("POST items (16 connections)", undefined, layout),
  ];
}

/** Item creation at 16 connections, spread over households (also used, with one household, by the single scenario). */
export function createScenario(
  name: string,
  target?: { household: string; freezer: string; compartment: string; user: string },
  layout: Layout = MANY_HOUSEHOLDS,
): HouseholdScenario {
  const pick = () => {
    if (target) return target;
    const household = layout.randomHousehold();
    return {
      household: ids.household(household),
      freezer: ids.freezer(household),
      compartment: ids.compartment(household, household % 2),
      user: layout.memberOf(household, layout.randomItem()),
    };
  };
  return {
    name,
    connections: 16,
    request() {
      const at = pick();
      return {
        method: "POST",
        path: `/households/${at.household}/items`,
        user: at.user,
        body: JSON.stringify({ name: "Bench soup", quantity: 1, freezerId: at.freezer, compartmentId: at.compartment }),
      };
    },
    raw: (pool) => {
      const at = pick();
      return pool.query(
        `INSERT INTO freezer_items (id, household_id, freezer_id, compartment_id, name, quantity, stored_at, created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, 'Bench soup', 1, now(), now(), now(), $5, $5) RETURNING id`,
        [`raw-${process.hrtime.bigint()}-${Math.random()}`, at.household, at.freezer, at.compartment, at.user],
      );
    },
  };
}
