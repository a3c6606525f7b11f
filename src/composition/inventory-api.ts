import path from "node:path";
import type { Express, RequestHandler, Router } from "express";
import type { HouseholdAccess } from "../application/inventory/household-access.js";
import type { AuthSettings, InventoryPorts } from "../application/inventory/inventory-ports.js";
import { createInventoryUseCases, type InventoryUseCases } from "../application/inventory/inventory-use-cases.js";
import { createInventoryApp, type InventoryAppOptions } from "../adapters/http/inventory/inventory-app.js";
import type { OpenAPIRegistry } from "../adapters/http/inventory/openapi.js";
import { connectRedisRateLimitStores } from "../adapters/http/inventory/redis-rate-limit-store.js";
import { Cuid2IdGenerator } from "../adapters/ids/cuid2-id-generator.js";
import { type Database, isDatabaseUp } from "../adapters/persistence/database.js";
import { KnexFreezerRepository } from "../adapters/persistence/knex-freezer-repository.js";
import { KnexHouseholdRepository } from "../adapters/persistence/knex-household-repository.js";
import { KnexInviteRepository } from "../adapters/persistence/knex-invite-repository.js";
import { KnexRefreshTokenRepository } from "../adapters/persistence/knex-refresh-token-repository.js";
import { KnexUserRepository } from "../adapters/persistence/knex-user-repository.js";
import { MemoryFreezerRepository } from "../adapters/persistence/memory-freezer-repository.js";
import { MemoryHouseholdRepository } from "../adapters/persistence/memory-household-repository.js";
import { MemoryInventoryStore } from "../adapters/persistence/memory-inventory-store.js";
import { MemoryInviteRepository } from "../adapters/persistence/memory-invite-repository.js";
import { MemoryRefreshTokenRepository } from "../adapters/persistence/memory-refresh-token-repository.js";
import { MemoryUserRepository } from "../adapters/persistence/memory-user-repository.js";
import { CryptoSecretGenerator } from "../adapters/security/crypto-secret-generator.js";
import { loadOrCreateSecret } from "../adapters/security/stored-secret.js";
import { JwtTokenService } from "../adapters/security/jwt-token-service.js";
import { ScryptPasswordHasher } from "../adapters/security/scrypt-password-hasher.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import { HEARTH_VERSION } from "./version.js";
import type { PasswordHasher } from "../ports/password-hasher.js";
import type { Config } from "./config.js";
import { knexItemsArea, memoryItemsArea } from "./inventory-items.js";
import { type HouseholdDataArea, knexHouseholdDataArea, memoryHouseholdDataArea } from "./inventory-household-data.js";

type Repositories = Pick<InventoryPorts, "users" | "refreshTokens" | "households" | "invites" | "freezers">;

/** What a router of another inventory area (items) gets to build itself. */
export interface InventoryAreaContext {
  ports: InventoryPorts;
  access: HouseholdAccess;
}

/** Another inventory area's HTTP contribution, mounted at /api/v1/households/:hid/items. */
export interface InventoryItemsArea {
  router: Router;
  registerOpenApi?: (registry: OpenAPIRegistry) => void;
}

export interface InventoryAssembly {
  app: Express;
  ports: InventoryPorts;
  useCases: InventoryUseCases;
}

interface AssembleOptions {
  repositories: Repositories;
  tokens: JwtTokenService;
  passwords: PasswordHasher;
  clock: Clock;
  logger: Logger;
  settings: AuthSettings;
  app: InventoryAppOptions;
  checkDatabase(): Promise<boolean>;
  items?: (context: InventoryAreaContext) => InventoryItemsArea;
  householdData?: (context: InventoryAreaContext) => HouseholdDataArea;
}

function assemble(options: AssembleOptions): InventoryAssembly {
  const ports: InventoryPorts = {
    ...options.repositories,
    passwords: options.passwords,
    tokens: options.tokens,
    secrets: new CryptoSecretGenerator(),
    ids: new Cuid2IdGenerator(),
    clock: options.clock,
  };
  const useCases = createInventoryUseCases(ports, options.settings);
  const areaContext = { ports, access: useCases.access };
  const items = options.items?.(areaContext);
  const householdData = options.householdData?.(areaContext);
  const app = createInventoryApp({
    useCases,
    access: useCases.access,
    tokens: options.tokens,
    logger: options.logger,
    options: options.app,
    checkDatabase: options.checkDatabase,
    ...(items ? { itemsRouter: items.router, registerItemsOpenApi: items.registerOpenApi } : {}),
    ...(householdData
      ? { householdDataRouter: householdData.router, registerHouseholdDataOpenApi: householdData.registerOpenApi }
      : {}),
  });
  return { app, ports, useCases };
}

/**
 * The JWT signing secret: JWT_SECRET when set; otherwise (development) one generated on
 * first start and kept in `<DATA_DIR>/jwt-secret`, so tokens survive restarts.
 */
export async function resolveJwtSecret(config: Pick<Config, "JWT_SECRET" | "DATA_DIR">, logger: Logger): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const stored = await loadOrCreateSecret(path.join(config.DATA_DIR, "jwt-secret"), { bytes: 48, minLength: 32 });
  if (stored.created) logger.warn("JWT_SECRET is not set: generated a development secret", { file: stored.file });
  return stored.secret;
}

function appOptions(config: Config, createStore?: InventoryAppOptions["rateLimits"]["createStore"]): InventoryAppOptions {
  return {
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    version: HEARTH_VERSION,
    rateLimits: {
      perMinute: config.RATE_LIMIT_PER_MINUTE,
      authPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
      ...(createStore ? { createStore } : {}),
    },
  };
}

export interface BuildInventoryApiDeps {
  config: Config;
  database: Database;
  logger: Logger;
  clock?: Clock;
  /** Builds the items area (its repository, use cases and router): knexItemsArea or memoryItemsArea. */
  items?: (context: InventoryAreaContext) => InventoryItemsArea;
  /** Request metrics middleware (METRICS_ENABLED), installed before every other handler. */
  observe?: RequestHandler;
}

/**
 * The inventory API over the knex repositories (PostgreSQL or PGlite). Expects the
 * database to be migrated. `close()` releases what this opened (the Redis client), not
 * the database, which the caller owns.
 */
export async function buildInventoryApi(
  deps: BuildInventoryApiDeps,
): Promise<{ app: Express; close(): Promise<void> }> {
  const { config, database, logger } = deps;
  const knex = database.knex;
  const redis = config.REDIS_URL ? await connectRedisRateLimitStores(config.REDIS_URL, logger) : undefined;
  if (redis) logger.info("Inventory API rate limits are shared through Redis");
  const assembly = assemble({
    repositories: {
      users: new KnexUserRepository(knex),
      refreshTokens: new KnexRefreshTokenRepository(knex),
      households: new KnexHouseholdRepository(knex),
      invites: new KnexInviteRepository(knex),
      freezers: new KnexFreezerRepository(knex),
    },
    tokens: new JwtTokenService(await resolveJwtSecret(config, logger), config.JWT_ACCESS_TTL),
    passwords: new ScryptPasswordHasher(),
    clock: deps.clock ?? systemClock,
    logger,
    settings: { refreshTokenTtlSeconds: config.JWT_REFRESH_TTL },
    app: { ...appOptions(config, redis?.createStore), ...(deps.observe ? { observe: deps.observe } : {}) },
    checkDatabase: () => isDatabaseUp(knex),
    items: deps.items ?? knexItemsArea(knex, { listCacheSize: config.ITEM_LIST_CACHE_SIZE }),
    householdData: knexHouseholdDataArea(knex),
  });
  return {
    app: assembly.app,
    close: async () => {
      await redis?.close();
    },
  };
}

export interface MemoryInventoryApiOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Defaults to scrypt with low cost, so tests stay fast. */
  passwords?: PasswordHasher;
  /** Shared rows; pass one to seed or inspect data. */
  store?: MemoryInventoryStore;
  items?: (context: InventoryAreaContext & { store: MemoryInventoryStore }) => InventoryItemsArea;
  /** Health answer; default "up". */
  checkDatabase?: () => Promise<boolean>;
}

/** The same app over the in-memory repositories, for HTTP contract tests. */
export async function buildMemoryInventoryApi(
  options: MemoryInventoryApiOptions,
): Promise<InventoryAssembly & { store: MemoryInventoryStore; close(): Promise<void> }> {
  const store = options.store ?? new MemoryInventoryStore();
  const redis = options.config.REDIS_URL
    ? await connectRedisRateLimitStores(options.config.REDIS_URL, options.logger)
    : undefined;
  const assembly = assemble({
    repositories: {
      users: new MemoryUserRepository(store),
      refreshTokens: new MemoryRefreshTokenRepository(store),
      households: new MemoryHouseholdRepository(store),
      invites: new MemoryInviteRepository(store),
      freezers: new MemoryFreezerRepository(store),
    },
    tokens: new JwtTokenService(
      options.config.JWT_SECRET ?? "memory-inventory-api-test-secret-0123456789",
      options.config.JWT_ACCESS_TTL,
    ),
    passwords: options.passwords ?? new ScryptPasswordHasher({ cost: 1024, blockSize: 8, parallelization: 1 }),
    clock: options.clock ?? systemClock,
    logger: options.logger,
    settings: { refreshTokenTtlSeconds: options.config.JWT_REFRESH_TTL },
    app: appOptions(options.config, redis?.createStore),
    checkDatabase: options.checkDatabase ?? (async () => true),
    items: (context: InventoryAreaContext) => (options.items ?? memoryItemsArea)({ ...context, store }),
    householdData: (context: InventoryAreaContext) => memoryHouseholdDataArea({ ...context, store }),
  });
  return {
    ...assembly,
    store,
    close: async () => {
      await redis?.close();
    },
  };
}
