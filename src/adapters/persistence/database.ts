import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import knexFactory, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import pg from "pg";
import { z } from "zod";
import { parseJsonOr } from "../../domain/shared/parse-json.js";
import { keepsFiles } from "../../ports/data-dir.js";
import { DURABLE_START_PARAMS, DurableNodeFS } from "./pglite-durable-fs.js";
import { MIGRATIONS_DIR, migrateToLatest, migrationNames } from "./migrator.js";
import { prepareMarkedStatements } from "./pg-prepared-statements.js";
import { PgliteStatementCache } from "./pglite-prepared-statements.js";
import { packCluster, unpackCluster } from "./unpack-cluster.js";

// node-postgres returns timestamptz as Date already; bigint counts (COUNT(*)) come back as
// strings by default, which would leak into JSON as "12". Counts here never exceed 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  /** postgres:// URL; when absent an embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files (`<dataDir>/pglite`); IN_MEMORY_DATA_DIR keeps it in memory. */
  dataDir: string;
  /** node-postgres pool size for PostgreSQL. */
  poolMax?: number | undefined;
  /**
   * PostgreSQL: run the statements the repositories mark as named prepared statements (default).
   * False for a connection pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean | undefined;
  /** Told what takes a while (creating the embedded database on a first start). */
  progress?: ((message: string) => void) | undefined;
  /**
   * The caller migrates to the latest schema right after opening. A new embedded database then
   * starts from the packaged template that has those migrations applied already: a first start
   * runs none, and the WebAssembly heap (which never shrinks) keeps nothing of their index
   * builds. Without it a new database is empty, for callers that migrate step by step.
   */
  migratesAfterOpening?: boolean | undefined;
  /**
   * PGlite: let the event loop take a turn before each unit of work (default true; see
   * PgliteStatementCache). False only for `npm run bench:inventory`'s same-run comparison.
   */
  turnBeforeStatements?: boolean | undefined;
}

export interface Database {
  knex: Knex;
  /** "postgres" or "pglite", for logs and health output. */
  kind: "postgres" | "pglite";
  /**
   * PGlite only: writes a consistent copy of the whole database to `file` (mode 0600; a gzip'd
   * tar of its data directory, which restoreEmbeddedDatabase loads), taken between transactions.
   */
  dumpEmbedded?(file: string): Promise<void>;
  /** PGlite only: the instance itself, past knex and its statement cache (benchmark baselines). */
  embedded?: PGlite;
  close(): Promise<void>;
}

/** Opens PostgreSQL when a URL is given, else PGlite under the data directory. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const knex = knexFactory({
      client: "pg",
      connection: options.databaseUrl,
      pool: {
        min: 0,
        max: options.poolMax ?? 10,
        ...(options.preparedStatements === false
          ? {}
          : {
              afterCreate(
                connection: Parameters<typeof prepareMarkedStatements>[0],
                done: (error: null, connection: unknown) => void,
              ) {
                prepareMarkedStatements(connection);
                done(null, connection);
              },
            }),
      },
    });
    return { knex, kind: "postgres", close: () => knex.destroy() };
  }
  const dataPath = keepsFiles(options.dataDir) ? path.resolve(options.dataDir, "pglite") : undefined;
  const fresh = dataPath === undefined || !existsSync(path.join(dataPath, "PG_VERSION"));
  let template = fresh ? await readPgliteTemplate(options.migratesAfterOpening === true) : undefined;
  if (fresh && dataPath) {
    options.progress?.(
      `Creating the embedded database in ${dataPath} (first start${template ? ", from the packaged template" : ", takes a while"})`,
    );
  }
  if (dataPath && template && (await emptyOrMissing(dataPath))) {
    // Unpacked on disk, the template opens like any later start (see unpackCluster).
    await rm(dataPath, { recursive: true, force: true });
    await mkdir(path.dirname(dataPath), { recursive: true });
    await unpackCluster(template, dataPath);
    template = undefined;
  }
  if (dataPath) await mkdir(dataPath, { recursive: true });
  // On disk, commits are synced (see DurableNodeFS); a database in memory has nothing to sync.
  const files = dataPath ? new DurableNodeFS(dataPath) : undefined;
  return embeddedDatabase(await createPglite(files, template), {
    dataPath,
    turnBeforeStatements: options.turnBeforeStatements,
    stoppedBy: () => files?.syncFailure,
  });
}

function createPglite(files: DurableNodeFS | undefined, dump: Uint8Array | undefined): Promise<PGlite> {
  const startParams = files ? DURABLE_START_PARAMS : PGlite.defaultStartParams;
  return PGlite.create({
    ...(files ? { fs: files } : {}),
    extensions: { unaccent, pg_trgm },
    startParams: [...startParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
    ...(dump ? { loadDataDir: new Blob([new Uint8Array(dump)]) } : {}),
  });
}

function embeddedDatabase(
  pglite: PGlite,
  {
    dataPath,
    turnBeforeStatements,
    stoppedBy,
  }: {
    /** The cluster's directory on disk; undefined for a database in memory. */
    dataPath?: string | undefined;
    turnBeforeStatements?: boolean | undefined;
    /** Why PostgreSQL has stopped for good, if it has. */
    stoppedBy?: () => unknown;
  } = {},
): Database & Required<Pick<Database, "dumpEmbedded">> {
  // knex-pglite uses its connection's waitReady, query() and close() only: the statement cache
  // stands in for query(), so every statement knex repeats is parsed and planned once.
  const statements = new PgliteStatementCache(pglite, { turnBeforeStatements, ...(stoppedBy ? { stoppedBy } : {}) });
  const connection = {
    waitReady: pglite.waitReady,
    // knex-pglite passes (text, bindings, options); queryNumbered (sql-statements.ts) passes
    // node-postgres's query config, as to a PostgreSQL connection.
    query: (sql: string | { text: string; values: unknown[] }, params?: unknown[], options?: QueryOptions) =>
      typeof sql === "string" ? statements.query(sql, params, options) : statements.query(sql.text, sql.values),
    close: () => pglite.close(),
  };
  const knex = knexFactory({
    client: ClientPgLite,
    dialect: "postgres",
    // knex-pglite accepts a ready PGlite instance through a connection function (untyped upstream).
    connection: () => ({ pglite: connection }) as object,
  } as Knex.Config);
  return {
    knex,
    kind: "pglite",
    embedded: pglite,
    dumpEmbedded: async (file: string) => {
      // Holding knex's only PGlite connection keeps every transaction out while the files are
      // copied; the checkpoint writes what is in shared buffers, so the copy needs no WAL replay.
      const client = knex.client as {
        acquireConnection(): Promise<unknown>;
        releaseConnection(connection: unknown): Promise<void>;
      };
      const connection = await client.acquireConnection();
      try {
        await pglite.exec("CHECKPOINT");
        // From disk when the cluster is there: dumpDataDir copies it through the WebAssembly
        // heap, which more than doubled a running Hearth's memory for a moment (see packCluster).
        if (dataPath) {
          await packCluster(dataPath, file);
          return;
        }
        const dump = await pglite.dumpDataDir("gzip");
        await writeFile(file, new Uint8Array(await dump.arrayBuffer()), { mode: 0o600 });
      } finally {
        await client.releaseConnection(connection);
      }
    },
    close: async () => {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * Creates `<dataDir>/pglite` from a dump taken by `dumpEmbedded` (a backup), or replaces the
 * database there (`hearth restore --force`) once the dump has been unpacked and has started:
 * a damaged backup leaves the database it would have replaced as it was.
 *
 * Unpacked onto disk as a first start unpacks the template. Loaded through PGlite's
 * `loadDataDir`, the archive and its copies sat in the WebAssembly heap: a backup of a 51 MB
 * database took `hearth restore` to a 550 MB peak (178 MB unpacked onto disk).
 */
export async function restoreEmbeddedDatabase(dataDir: string, dump: Uint8Array | Readable): Promise<void> {
  const dataPath = path.resolve(dataDir, "pglite");
  const incoming = `${dataPath}.restoring-${randomUUID()}`;
  await mkdir(path.dirname(dataPath), { recursive: true });
  await unpackCluster(dump, incoming, "The backup's database");
  const refuse = async (problem: string) => {
    await rm(incoming, { recursive: true, force: true });
    return new Error(`The backup's database ${problem}`);
  };
  // Without one, PGlite would run initdb there, and the restore would "succeed" with an empty database.
  if (!existsSync(path.join(incoming, "PG_VERSION"))) throw await refuse("is not a database cluster (no PG_VERSION)");
  try {
    const pglite = await createPglite(new DurableNodeFS(incoming), undefined);
    // A query proves the restored cluster starts; close() then writes it out.
    try {
      await pglite.query("SELECT 1");
    } finally {
      await pglite.close();
    }
  } catch (error) {
    throw await refuse(`does not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  await rm(dataPath, { recursive: true, force: true });
  await rename(incoming, dataPath);
}

/**
 * PostgreSQL's defaults assume a server with memory to spare; PGlite runs inside Hearth's own
 * process, and a WebAssembly heap only grows (pages it touched stay resident). Sized for a
 * household's data on a 1 GB board; docs/performance.md has the figures behind each value.
 */
const PGLITE_SETTINGS = [
  // 128MB by default: once touched, it stays in the process's RSS for good.
  "shared_buffers=16MB",
  // 64MB by default, taken by CREATE INDEX in migrations: the heap would keep that peak.
  "maintenance_work_mem=16MB",
  // 80MB/1GB by default: WAL segments kept on disk, and in every backup (the dump copies them).
  "min_wal_size=32MB",
  "max_wal_size=64MB",
];

/**
 * Initialised PGlite clusters written at build time (writePgliteTemplates), per PGlite
 * version: loading one takes a first start a few seconds, where initdb in WebAssembly takes
 * over ten on a small board and leaves its memory behind. One is empty; the other has every
 * migration of the build applied, named in a manifest beside it. Used only when built by the
 * PGlite version installed now; anything else falls back to initdb.
 */
const TEMPLATE_DIR = fileURLToPath(
  new URL(
    import.meta.url.endsWith(".js") ? "../../pglite-template/" : "../../../dist/pglite-template/",
    import.meta.url,
  ),
);

const templateFile = (version: string, migrated: boolean) => `pglite-${version}${migrated ? "-migrated" : ""}.tar.gz`;
const manifestFile = (version: string) => `pglite-${version}-migrated.json`;

/** What the migrated template holds: the migrations applied to it, as knex records them. */
const TemplateManifestSchema = z.object({ migrations: z.array(z.string()) });

/**
 * A migrated template fits when every migration it holds is one this installation has: knex
 * then applies only the newer ones, as on any existing database. One it does not know (a
 * template built from newer sources than these) would stop knex, so the empty one is used.
 */
export function migratedTemplateFits(templateMigrations: readonly string[], installed: readonly string[]): boolean {
  const known = new Set(installed);
  return templateMigrations.every((name) => known.has(name));
}

/**
 * Writes both templates into `target` (scripts/build.mjs, into dist/pglite-template), with
 * the settings and extensions every start uses, migrated from `migrationsDir`.
 */
export async function writePgliteTemplates(target: string, migrationsDir: string = MIGRATIONS_DIR): Promise<void> {
  const version = await installedPgliteVersion();
  await mkdir(target, { recursive: true });
  // One instance, dumped before and after the migrations (initdb runs once).
  const database = embeddedDatabase(await createPglite(undefined, undefined));
  try {
    await database.dumpEmbedded(path.join(target, templateFile(version, false)));
    const migrations = await migrateToLatest(database.knex, migrationsDir);
    await database.dumpEmbedded(path.join(target, templateFile(version, true)));
    await writeFile(path.join(target, manifestFile(version)), `${JSON.stringify({ migrations }, null, 2)}\n`);
  } finally {
    await database.close();
  }
}

async function installedPgliteVersion(): Promise<string> {
  // createRequire, not import.meta.resolve: tsx (tests, npm start) runs this file without the latter.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = JSON.parse(await readFile(path.join(path.dirname(entry), "..", "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

async function readPgliteTemplate(migrated: boolean): Promise<Uint8Array | undefined> {
  const version = await installedPgliteVersion();
  if (migrated) {
    const manifest = await readIfThere(path.join(TEMPLATE_DIR, manifestFile(version)));
    const parsed = manifest && TemplateManifestSchema.safeParse(parseJsonOr(manifest.toString("utf8"), undefined));
    // A damaged manifest only costs this start its migrations.
    if (parsed?.success && migratedTemplateFits(parsed.data.migrations, await migrationNames())) {
      const template = await readIfThere(path.join(TEMPLATE_DIR, templateFile(version, true)));
      if (template) return template;
    }
  }
  // No template for this PGlite (a source checkout not built yet, another PGlite version): initdb runs.
  return readIfThere(path.join(TEMPLATE_DIR, templateFile(version, false)));
}

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A directory an earlier start created and left empty (or none): nothing in it to keep. */
async function emptyOrMissing(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
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
