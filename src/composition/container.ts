import type { Clock } from "../ports/clock.js";
import "reflect-metadata";
import { container, type DependencyContainer, instanceCachingFactory } from "tsyringe";
import { SessionStore } from "../adapters/http/engine/session-store.js";
import type { RingBufferLog } from "../adapters/logging/ring-buffer.js";
import type { Database } from "../adapters/persistence/database.js";
import { registerInventory } from "./inventory-api.js";
import { DATABASE, databaseModule } from "./inventory-modules.js";
import { countInventory } from "../adapters/persistence/knex-inventory-counts.js";
import type { createMetrics, Metrics } from "../adapters/services/metrics/metrics.js";
import { LOG_BUFFER } from "../ports/log-buffer.js";
import { LOGGER, type Logger } from "../ports/logger.js";
import type { Config } from "./config.js";
import { assembleEngine, type Engine, type EngineOptions, registerEngine } from "./create-engine.js";
import { engineRoutes } from "./engine-routes.js";
import { HEARTH_VERSION } from "./version.js";
import { PostgresLeaderLease } from "../adapters/persistence/postgres-leader-lease.js";
import { KnexCronFireLedger } from "../adapters/persistence/knex-cron-fire-ledger.js";
import { KnexJsonStore } from "../adapters/persistence/knex-json-store.js";
import { LEADER_LEASE, type LeaderLease } from "../ports/leader-lease.js";
import type { EngineLeadershipOptions } from "./create-engine.js";

// Tokens for what only composition knows; ports carry their own tokens beside them.
export const CONFIG = Symbol("Config");
export const SESSION_STORE = Symbol("SessionStore");
export const ENGINE = Symbol("Engine");
export const METRICS = Symbol("Metrics");

export interface HearthCore {
  config: Config;
  logger: Logger;
  logBuffer: RingBufferLog;
  database: Database;
  /** The signing secret of the inventory's access tokens (resolveJwtSecret). */
  jwtSecret: string;
  /** Engine HTTP port override (0 = any free port); see StartHearthOptions.httpPort. */
  httpPort?: number;
  /**
   * The metrics adapter, imported by the caller only when METRICS_ENABLED: prom-client costs
   * ~13 MB of RSS in a process that does not serve /metrics. Absent, METRICS resolves to null.
   */
  createMetrics?: typeof createMetrics;
  /** The inventory's clock (tests pass a fake one); the system clock by default. */
  clock?: Clock | undefined;
}

/**
 * The process's object graph. esbuild (tsx) emits no decorator metadata, so everything is
 * registered by explicit token with factories; each factory builds its object once.
 */
export function createHearthContainer(core: HearthCore): DependencyContainer {
  const scope = container.createChildContainer();
  scope.register(CONFIG, { useValue: core.config });
  scope.register(LOGGER, { useValue: core.logger });
  scope.register(LOG_BUFFER, { useValue: core.logBuffer });
  registerInventory(scope, databaseModule(core.database, { listCacheSize: core.config.ITEM_LIST_CACHE_SIZE }), {
    jwtSecret: core.jwtSecret,
    config: core.config,
    ...(core.clock ? { clock: core.clock } : {}),
  });
  scope.register(SESSION_STORE, { useFactory: instanceCachingFactory(() => new SessionStore()) });
  scope.register(ENGINE, {
    useFactory: instanceCachingFactory<Engine>((resolver) => {
      const config = resolver.resolve<Config>(CONFIG);
      // The engine's adapters in a child scope: its clock and timers are its own, not the inventory's.
      const engineScope = resolver.createChildContainer();
      const options: EngineOptions = {
        automationsDir: config.AUTOMATIONS_DIR,
        recursive: config.AUTOMATIONS_RECURSIVE,
        config,
        logger: resolver.resolve<Logger>(LOGGER),
        logBuffer: resolver.resolve<RingBufferLog>(LOG_BUFFER),
        routes: engineRoutes({ version: HEARTH_VERSION, sessions: resolver.resolve<SessionStore>(SESSION_STORE) }),
        // main.ts owns SIGINT/SIGTERM: it stops the inventory API and the database as well.
        handleSignals: false,
        // but one automation's stray rejection must not end the inventory API with it.
        catchUnhandledRejections: true,
        // and one automation's throwing setTimeout callback must not either.
        catchUncaughtExceptions: true,
        ...(core.httpPort !== undefined ? { httpPort: core.httpPort } : {}),
        ...hotStandby(resolver.resolve<LeaderLease | null>(LEADER_LEASE), core),
      };
      registerEngine(engineScope, options);
      return assembleEngine(engineScope, options);
    }),
  });
  scope.register(LEADER_LEASE, {
    useFactory: instanceCachingFactory<LeaderLease | null>(() => {
      const { config } = core;
      if (!config.HOT_STANDBY || core.database.kind !== "postgres" || !config.DATABASE_URL) return null;
      return new PostgresLeaderLease({
        databaseUrl: config.DATABASE_URL,
        // A renewal slower than one period is as good as lost: the leader gives up soon after.
        queryTimeoutMs: config.LEADER_LEASE_RENEW_MS,
        logger: core.logger.child({ module: "leadership" }),
      });
    }),
  });
  scope.register(METRICS, {
    useFactory: instanceCachingFactory<Metrics | null>((resolver) => {
      if (!resolver.resolve<Config>(CONFIG).METRICS_ENABLED || !core.createMetrics) return null;
      const engine = resolver.resolve<Engine>(ENGINE);
      const database = resolver.resolve<Database>(DATABASE);
      return core.createMetrics({
        mqtt: engine.mqtt,
        manager: engine.manager,
        inventoryCounts: () => countInventory(database.knex),
        logger: resolver.resolve<Logger>(LOGGER),
      });
    }),
  });
  return scope;
}

/** Hot standby on PostgreSQL: the lease, the cron ledger, and state and devices in the database. */
function hotStandby(lease: LeaderLease | null, core: HearthCore): { leadership?: EngineLeadershipOptions } {
  if (!lease) return {};
  const { knex } = core.database;
  const logger = core.logger.child({ module: "state" });
  return {
    leadership: {
      lease,
      ledger: new KnexCronFireLedger(knex),
      ...(core.config.INSTANCE_NAME ? { instance: core.config.INSTANCE_NAME } : {}),
      ttlMs: core.config.LEADER_LEASE_TTL_MS,
      renewMs: core.config.LEADER_LEASE_RENEW_MS,
      documents: (name, fence) => new KnexJsonStore({ knex, name, logger, fence }),
    },
  };
}
