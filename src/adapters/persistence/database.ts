import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import knexFactory, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import pg from "pg";

// node-postgres returns timestamptz as Date already; bigint counts (COUNT(*)) come back as
// strings by default, which would leak into JSON as "12". Counts here never exceed 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  /** postgres:// URL; when absent an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files (`<dataDir>/pglite`). `:memory:` keeps it in memory. */
  dataDir: string;
  /** node-postgres pool size for PostgreSQL. */
  poolMax?: number | undefined;
}

export interface Database {
  knex: Knex;
  /** "postgres" or "pglite", for logs and health output. */
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

/** Opens PostgreSQL when a URL is given, else PGlite under the data directory. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const knex = knexFactory({
      client: "pg",
      connection: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
    });
    return { knex, kind: "postgres", close: () => knex.destroy() };
  }
  const dataPath = options.dataDir === ":memory:" ? undefined : path.resolve(options.dataDir, "pglite");
  if (dataPath) await mkdir(dataPath, { recursive: true });
  const pglite = await PGlite.create({ ...(dataPath ? { dataDir: dataPath } : {}), extensions: { unaccent, pg_trgm } });
  const knex = knexFactory({
    client: ClientPgLite,
    dialect: "postgres",
    // knex-pglite accepts a ready PGlite instance through a connection function (untyped upstream).
    connection: () => ({ pglite }) as object,
  } as Knex.Config);
  return {
    knex,
    kind: "pglite",
    close: async () => {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** True when a trivial query succeeds; used by health checks. */
export async function isDatabaseUp(knex: Knex): Promise<boolean> {
  try {
    await knex.raw("SELECT 1");
    return true;
  } catch {
    // Any failure means "down" for a health probe; the error itself is logged by the caller's pool.
    return false;
  }
}
