import { createLogger } from "../adapters/logging/winston-logger.js";
import type { RingBufferLog } from "../adapters/logging/ring-buffer.js";
import { listen, type HttpListener } from "../adapters/http/http-listener.js";
import { openDatabase, type Database } from "../adapters/persistence/database.js";
import { KnexHouseholdTransferStore } from "../adapters/persistence/knex-household-transfer-store.js";
import { migrateToLatest } from "../adapters/persistence/migrator.js";
import { rm } from "node:fs/promises";
import path from "node:path";
import { IMPORT_SPOOL_DIR, keepsFiles } from "../ports/data-dir.js";
import { loadOrCreateSecret } from "../adapters/security/stored-secret.js";
import type { Logger } from "../ports/logger.js";
import { UndoStack } from "./lifecycle.js";
import { type Config, type Environment, loadConfig } from "./config.js";
import type { SessionStore } from "../adapters/http/engine/session-store.js";
import type { Metrics } from "../adapters/services/metrics/metrics.js";
import { createHearthContainer, ENGINE, METRICS, SESSION_STORE } from "./container.js";
import type { Engine } from "./create-engine.js";
import { mountStatusSurfaces } from "./status-surfaces.js";
import { engineDebugApi } from "./engine-routes.js";
import { AUTHENTICATED_LOCAL } from "../adapters/http/engine/engine-auth.js";
import { HEARTH_VERSION } from "./version.js";
import { LEADER_LEASE, type LeaderLease } from "../ports/leader-lease.js";
import { buildInventoryApi, resolveJwtSecret } from "./inventory-api.js";
import { serveBackups } from "../adapters/backup/backup-socket.js";
import { type InventoryLink, linkInventory } from "./inventory-link.js";
import type { Clock } from "../ports/clock.js";
import type { Timer } from "../ports/timer.js";

export interface StartHearthOptions {
  /** Environment to read configuration from; process.env by default. */
  env?: Environment;
  /** Values that win over the environment (tests use these). */
  overrides?: Partial<Config>;
  /**
   * Port overrides that, unlike HTTP_PORT=0, mean "any free port" (tests). `httpPort: null`
   * keeps the engine HTTP server off.
   */
  apiPort?: number;
  httpPort?: number | null;
  /** Custom log destination (tests keep output quiet). */
  logStream?: NodeJS.WritableStream;
  /** Fake time for the inventory, its events and the expiry reminders (tests). */
  clock?: Clock;
  timer?: Timer;
  /** A certificate push services are trusted with besides the system's (tests with a local push service). */
  pushCa?: string;
}

export interface RunningHearth {
  readonly config: Config;
  readonly logger: Logger;
  readonly logBuffer: RingBufferLog;
  readonly database: Database;
  readonly engine: Engine;
  /** Inventory events, MQTT summary and reminders joining the inventory to the engine. */
  readonly inventoryLink: InventoryLink;
  /** Bound port of the inventory API. */
  readonly apiPort: number;
  /** Bound port of the engine HTTP server, or null when disabled. */
  readonly httpPort: number | null;
  /** Stops everything in order; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Boots the whole process: configuration, database and migrations, the inventory API,
 * and the automation engine with its HTTP server. Whatever started before a failure is
 * stopped again, in reverse, before the error is rethrown.
 */
export async function startHearth(options: StartHearthOptions = {}): Promise<RunningHearth> {
  const loaded: Config = { ...loadConfig(options.env ?? process.env), ...options.overrides };
  const { logger, buffer } = createLogger({
    level: loaded.LOG_LEVEL,
    json: loaded.NODE_ENV === "production",
    stream: options.logStream,
  });
  const log = logger.child({ module: "hearth" });
  const undo = new UndoStack();
  log.info(`Starting Hearth ${HEARTH_VERSION}`, { nodeEnv: loaded.NODE_ENV, dataDir: loaded.DATA_DIR });

  try {
    const httpEnabled =
      options.httpPort === null ? false : typeof options.httpPort === "number" || loaded.HTTP_PORT !== 0;
    const config = await protectEngine(loaded, httpEnabled, log);
    warnAboutTrustProxy(config, log);
    // Listening first makes a second Hearth on the same DATA_DIR stop here, before it opens PGlite.
    let dumpDatabase: ((file: string) => Promise<void>) | undefined;
    const backups = await serveBackups(
      config.DATA_DIR,
      async (file) => {
        if (!dumpDatabase) throw new Error("the database is not open yet, or is PostgreSQL (back it up with pg_dump)");
        await dumpDatabase(file);
      },
      logger.child({ module: "backup" }),
    );
    undo.push("backup socket", () => backups.close());
    // This process has DATA_DIR to itself now: what an import cut short by a stop spooled goes.
    if (keepsFiles(config.DATA_DIR))
      await rm(path.join(config.DATA_DIR, IMPORT_SPOOL_DIR), { recursive: true, force: true });
    const database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      progress: (message) => log.info(message),
      migratesAfterOpening: true,
    });
    undo.push("database", () => database.close());
    dumpDatabase = database.dumpEmbedded;
    const applied = await migrateToLatest(
      database.knex,
      undefined,
      (message) => log.info(message),
      (message) => log.warn(message),
    );
    if (database.kind === "pglite") {
      // Only PGlite writes imports in chunks, and only this process has it open.
      const undone = await new KnexHouseholdTransferStore(database.knex, { chunked: true }).undoInterruptedImports();
      if (undone > 0) log.warn(`Took back ${undone} household import(s) a stop cut short`);
    }
    log.info(`Database ready (${database.kind === "pglite" ? `PGlite in ${config.DATA_DIR}` : "PostgreSQL"})`, {
      migrationsApplied: applied.length,
    });

    // The engine is built first (it connects nothing until start()) so metrics can observe
    // it and time the inventory API's requests from its first route on.
    const graph = createHearthContainer({
      // httpPort null keeps the server off; a number (0 = any free port) overrides HTTP_PORT.
      config: options.httpPort === null ? { ...config, HTTP_PORT: 0 } : config,
      logger,
      logBuffer: buffer,
      database,
      jwtSecret: await resolveJwtSecret(config, logger.child({ module: "inventory" })),
      clock: options.clock,
      ...(typeof options.httpPort === "number" ? { httpPort: options.httpPort } : {}),
      ...(config.METRICS_ENABLED
        ? { createMetrics: (await import("../adapters/services/metrics/metrics.js")).createMetrics }
        : {}),
    });
    const engine = graph.resolve<Engine>(ENGINE);
    const lease = graph.resolve<LeaderLease | null>(LEADER_LEASE);
    if (lease) undo.push("leader lease", () => lease.close());
    const metrics = graph.resolve<Metrics | null>(METRICS);
    if (metrics) undo.push("metrics", async () => metrics.stop());
    mountStatusSurfaces(engine, { sessions: graph.resolve<SessionStore>(SESSION_STORE), metrics });

    const inventory = await buildInventoryApi({
      container: graph,
      config,
      database,
      logger: logger.child({ module: "inventory" }),
      ...(metrics ? { observe: metrics.httpMiddleware("inventory") } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      // The inventory app lets only admins' accounts through to these; past that check they
      // are as trusted as the engine token (the HomeKit setup code is shown).
      house: engineDebugApi(engine, {
        version: HEARTH_VERSION,
        auth: (_req, res, next) => {
          res.locals[AUTHENTICATED_LOCAL] = true;
          next();
        },
      }),
    });
    undo.push("inventory services", () => inventory.close());
    const api: HttpListener = await listen(inventory.app, options.apiPort ?? config.API_PORT);
    undo.push("inventory API", () => api.close());
    log.info(`Inventory API listening on port ${api.port} (/api/v1)`);

    const inventoryLink = linkInventory({
      config,
      database,
      engine,
      logger,
      clock: options.clock,
      timer: options.timer,
      vapidKeys: inventory.vapidKeys,
      pushCa: options.pushCa,
    });
    await engine.start();
    undo.push("engine", () => engine.stop());
    await inventoryLink.start();
    undo.push("inventory events", () => inventoryLink.stop());
    for (const line of startupUrls(config, api.port, engine.httpPort, metrics !== null)) log.info(line);

    let stopping: Promise<void> | undefined;
    return {
      config,
      logger,
      logBuffer: buffer,
      database,
      engine,
      inventoryLink,
      apiPort: api.port,
      httpPort: engine.httpPort,
      stop() {
        stopping ??= (async () => {
          log.info("Stopping");
          // The inventory API stops accepting first so no request meets a closed pool;
          // the engine then runs its own spec'd stop sequence; the database goes last.
          await inventory.householdEvents.stop();
          await api.close();
          await inventory.close();
          await inventoryLink.stop();
          await engine.stop();
          await lease?.close();
          metrics?.stop();
          await backups.close();
          await database.close();
          log.info("Stopped");
        })();
        return stopping;
      },
    };
  } catch (error) {
    await undo.unwind(log);
    throw error;
  }
}

/**
 * A hop count (or true) trusts X-Forwarded-For from whoever connects: a client that reaches
 * Hearth directly, past the proxy, can then pick its own address and slip past the per-address
 * limits on /auth and the web UI login. Naming the proxy's addresses cannot be fooled that way.
 */
function warnAboutTrustProxy(config: Config, log: Logger): void {
  if (typeof config.TRUST_PROXY === "number" || config.TRUST_PROXY === true) {
    log.warn(
      `TRUST_PROXY=${String(config.TRUST_PROXY)} trusts X-Forwarded-For from any client that connects directly; name the proxy instead (TRUST_PROXY=loopback, or its address or subnet) unless nothing can reach Hearth except through the proxy`,
    );
  }
}

/** The addresses a person opens once Hearth is up (localhost; the same ports answer on the LAN). */
function startupUrls(config: Config, apiPort: number, httpPort: number | null, metrics: boolean): string[] {
  const lines = [
    `Household web app: http://localhost:${apiPort}/`,
    `Inventory API docs: http://localhost:${apiPort}/api/docs`,
  ];
  if (httpPort !== null && config.WEB_UI_ENABLED) lines.push(`Engine web UI: http://localhost:${httpPort}/status`);
  if (httpPort !== null && metrics) lines.push(`Metrics: http://localhost:${httpPort}/metrics`);
  return lines;
}

/**
 * Secure by default on a home network: with the engine's HTTP server on and no HTTP_TOKEN,
 * a token is generated once into DATA_DIR and required for /api, /status and /metrics.
 * HTTP_AUTH=false is the explicit way to serve them to anyone.
 */
async function protectEngine(config: Config, httpEnabled: boolean, log: Logger): Promise<Config> {
  if (config.HTTP_TOKEN || !httpEnabled) return config;
  if (!config.HTTP_AUTH) {
    log.warn(
      "HTTP_AUTH=false and no HTTP_TOKEN: the engine's /api, /status and /metrics answer anyone who can reach them",
    );
    return config;
  }
  const stored = await loadOrCreateSecret(path.join(config.DATA_DIR, "http-token"), { bytes: 32, minLength: 16 });
  log.info(
    `${stored.created ? "Generated" : "Using"} the engine's access token: it is in ${stored.file} (log in to the web UI with it, or send it as a Bearer token); set HTTP_TOKEN to choose your own`,
  );
  return { ...config, HTTP_TOKEN: stored.secret };
}
