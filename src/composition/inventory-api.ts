import { randomBytes } from "node:crypto";
import { IMPORT_SPOOL_DIR, keepsFiles } from "../ports/data-dir.js";
import {
  createHouseholdDataRouter,
  type HouseholdDataUseCases,
  registerHouseholdDataOpenApi,
} from "../adapters/http/inventory/household-data-routes.js";
import { ExportHousehold } from "../application/inventory/transfer/export-household.js";
import type { HouseholdAccess } from "../application/inventory/household-access.js";
import { ImportHousehold } from "../application/inventory/transfer/import-household.js";
import { GetReminderSettings, UpdateReminderSettings } from "../application/inventory/reminders/reminder-settings.js";
import { HOUSEHOLD_TRANSFER_STORE, type HouseholdTransferStore } from "../ports/household-transfer-store.js";
import { REMINDER_REPOSITORY, type ReminderRepository } from "../ports/reminder-repository.js";
import { barcodeRoutes } from "../adapters/http/inventory/barcode-routes.js";
import { pushRoutes } from "../adapters/http/inventory/push-routes.js";
import { loadOrCreateVapidKeys, type LoadedVapidKeys } from "../adapters/security/vapid-keys.js";
import { GetMemberReminder, UpdateMemberReminder } from "../application/inventory/push/member-reminder-settings.js";
import { SubscribeToPush, UnsubscribeFromPush } from "../application/inventory/push/push-subscriptions.js";
import { PUSH_REPOSITORY, type PushRepository } from "../ports/push-repository.js";
import "reflect-metadata";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Express, RequestHandler, Router } from "express";
import { container, type DependencyContainer } from "tsyringe";
import { createInventoryApp, type InventoryAppOptions } from "../adapters/http/inventory/inventory-app.js";
import { createItemsRouter, registerItemsOpenApi } from "../adapters/http/inventory/items-router.js";
import {
  createItemPhotoRouter,
  DEFAULT_PHOTO_MAX_BYTES,
  registerItemPhotoOpenApi,
} from "../adapters/http/inventory/item-photo-routes.js";
import { SharpPhotoProcessor } from "../adapters/images/sharp-photo-processor.js";
import {
  createItemPhotoUseCases,
  type ItemPhotoUseCases,
} from "../application/inventory/items/item-photo-use-cases.js";
import { ITEM_PHOTO_REPOSITORY, type ItemPhotoRepository } from "../ports/item-photo-repository.js";
import { PHOTO_PROCESSOR, type PhotoProcessor } from "../ports/photo-processor.js";
import { connectRedisRateLimitStores } from "../adapters/http/inventory/redis-rate-limit-store.js";
import { Cuid2IdGenerator } from "../adapters/ids/cuid2-id-generator.js";
import type { Database } from "../adapters/persistence/database.js";
import { CryptoSecretGenerator } from "../adapters/security/crypto-secret-generator.js";
import { JwtTokenService } from "../adapters/security/jwt-token-service.js";
import { ScryptPasswordHasher } from "../adapters/security/scrypt-password-hasher.js";
import { loadOrCreateSecret } from "../adapters/security/stored-secret.js";
import { householdTimeZones } from "../application/inventory/households/household-time-zones.js";
import { HouseholdEventStreams } from "../application/inventory/household-event-streams.js";
import { INVENTORY_EVENT_FEED, type InventoryEventFeed } from "../ports/inventory-event-feed.js";
import type { AuthSettings, InventoryPorts } from "../application/inventory/inventory-ports.js";
import { createInventoryUseCases, type InventoryUseCases } from "../application/inventory/inventory-use-cases.js";
import { createItemUseCases, type ItemUseCases } from "../application/inventory/items/item-use-cases.js";
import { CLOCK, type Clock, systemClock } from "../ports/clock.js";
import { FREEZER_REPOSITORY, type FreezerRepository } from "../ports/freezer-repository.js";
import { CATEGORY_REPOSITORY, type CategoryRepository } from "../ports/category-repository.js";
import { HOUSEHOLD_REPOSITORY, type HouseholdRepository } from "../ports/household-repository.js";
import { ID_GENERATOR, type IdGenerator } from "../ports/id-generator.js";
import { INVITE_REPOSITORY, type InviteRepository } from "../ports/invite-repository.js";
import { ITEM_PLACEMENT_LOOKUP, type ItemPlacementLookup } from "../ports/item-placement.js";
import { ITEM_REPOSITORY, type ItemRepository } from "../ports/item-repository.js";
import type { Logger } from "../ports/logger.js";
import { PASSWORD_HASHER, type PasswordHasher } from "../ports/password-hasher.js";
import { REFRESH_TOKEN_REPOSITORY, type RefreshTokenRepository } from "../ports/refresh-token-repository.js";
import { SECRET_GENERATOR, type SecretGenerator } from "../ports/secret-generator.js";
import { TOKEN_SERVICE, type TokenService } from "../ports/token-service.js";
import { USER_REPOSITORY, type UserRepository } from "../ports/user-repository.js";
import type { Config } from "./config.js";
import { databaseModule, type InventoryModule, STORAGE_CHECK } from "./inventory-modules.js";
import { barcodeUseCases, PRODUCT_LOOKUP_SETTING } from "./product-lookup.js";
import { HEARTH_VERSION } from "./version.js";
import { shoppingListRoutes } from "../adapters/http/inventory/shopping-list-routes.js";
import {
  createShoppingListUseCases,
  type ShoppingListUseCases,
} from "../application/inventory/shopping-list/shopping-list-use-cases.js";
import { SHOPPING_LIST_REPOSITORY, type ShoppingListRepository } from "../ports/shopping-list-repository.js";

export interface InventoryAssembly {
  app: Express;
  shoppingListUseCases: ShoppingListUseCases;
  /** The live event streams; stop them before closing the server, so it need not wait for them. */
  householdEvents: HouseholdEventStreams;
  ports: InventoryPorts;
  useCases: InventoryUseCases;
  itemUseCases: ItemUseCases;
  itemPhotoUseCases: ItemPhotoUseCases;
}

export interface InventoryContainerOptions {
  /** The signing secret of access tokens (see resolveJwtSecret). */
  jwtSecret: string;
  config: Pick<Config, "JWT_ACCESS_TTL"> & Partial<Pick<Config, "PRODUCT_LOOKUP_URL">>;
  clock?: Clock;
  /** Defaults to scrypt with its production cost. */
  passwords?: PasswordHasher;
}

/**
 * The inventory's container: the repositories of one adapter family (`module`) plus the
 * security, id and time adapters every family shares.
 */
export function createInventoryContainer(
  module: InventoryModule,
  options: InventoryContainerOptions,
): DependencyContainer {
  const scope = container.createChildContainer();
  registerInventory(scope, module, options);
  return scope;
}

/** Registers the inventory's adapters into an existing container (the process's one). */
export function registerInventory(
  scope: DependencyContainer,
  module: InventoryModule,
  options: InventoryContainerOptions,
): void {
  module(scope);
  scope.register(CLOCK, { useValue: options.clock ?? systemClock });
  scope.register(ID_GENERATOR, { useValue: new Cuid2IdGenerator() });
  scope.register(SECRET_GENERATOR, { useValue: new CryptoSecretGenerator(options.jwtSecret) });
  scope.register(PASSWORD_HASHER, { useValue: options.passwords ?? new ScryptPasswordHasher() });
  scope.register(TOKEN_SERVICE, { useValue: new JwtTokenService(options.jwtSecret, options.config.JWT_ACCESS_TTL) });
  scope.register(PRODUCT_LOOKUP_SETTING, { useValue: { url: options.config.PRODUCT_LOOKUP_URL } });
  scope.register(PHOTO_PROCESSOR, { useValue: new SharpPhotoProcessor() });
}

/** The ports the use cases draw from, resolved from an inventory container. */
export function resolveInventoryPorts(scope: DependencyContainer): InventoryPorts {
  return {
    users: scope.resolve<UserRepository>(USER_REPOSITORY),
    refreshTokens: scope.resolve<RefreshTokenRepository>(REFRESH_TOKEN_REPOSITORY),
    households: scope.resolve<HouseholdRepository>(HOUSEHOLD_REPOSITORY),
    invites: scope.resolve<InviteRepository>(INVITE_REPOSITORY),
    freezers: scope.resolve<FreezerRepository>(FREEZER_REPOSITORY),
    categories: scope.resolve<CategoryRepository>(CATEGORY_REPOSITORY),
    passwords: scope.resolve<PasswordHasher>(PASSWORD_HASHER),
    tokens: scope.resolve<TokenService>(TOKEN_SERVICE),
    secrets: scope.resolve<SecretGenerator>(SECRET_GENERATOR),
    ids: scope.resolve<IdGenerator>(ID_GENERATOR),
    clock: scope.resolve<Clock>(CLOCK),
  };
}

/** The use cases and the HTTP app over what `scope` holds. */
export function assembleInventory(
  scope: DependencyContainer,
  options: {
    logger: Logger;
    settings: AuthSettings;
    app: InventoryAppOptions;
    house?: Router | undefined;
    /** Web Push: the VAPID public key and PUSH_ALLOW_PRIVATE_ENDPOINTS; absent: no push routes. */
    push?: { publicKey: string; allowPrivateEndpoints: boolean };
  },
): InventoryAssembly {
  const ports = resolveInventoryPorts(scope);
  const useCases = createInventoryUseCases(ports, options.settings);
  const itemUseCases = createItemUseCases(
    {
      items: scope.resolve<ItemRepository>(ITEM_REPOSITORY),
      placements: scope.resolve<ItemPlacementLookup>(ITEM_PLACEMENT_LOOKUP),
      ids: ports.ids,
      clock: ports.clock,
      timeZones: householdTimeZones(ports.households),
    },
    useCases.access,
  );
  const shoppingListUseCases = createShoppingListUseCases(
    {
      shoppingList: scope.resolve<ShoppingListRepository>(SHOPPING_LIST_REPOSITORY),
      items: scope.resolve<ItemRepository>(ITEM_REPOSITORY),
      placements: scope.resolve<ItemPlacementLookup>(ITEM_PLACEMENT_LOOKUP),
      ids: ports.ids,
      clock: ports.clock,
    },
    useCases.access,
  );
  const itemPhotoUseCases = createItemPhotoUseCases(
    {
      items: scope.resolve<ItemRepository>(ITEM_REPOSITORY),
      photos: scope.resolve<ItemPhotoRepository>(ITEM_PHOTO_REPOSITORY),
      processor: scope.resolve<PhotoProcessor>(PHOTO_PROCESSOR),
      ids: ports.ids,
      clock: ports.clock,
    },
    useCases.access,
  );
  const photoMaxBytes = options.app.photoMaxBytes ?? DEFAULT_PHOTO_MAX_BYTES;
  const householdEvents = new HouseholdEventStreams({
    feed: scope.resolve<InventoryEventFeed>(INVENTORY_EVENT_FEED),
    access: useCases.access,
    logger: options.logger.child({ module: "event-streams" }),
    pollIntervalMs: options.app.eventStreams?.pollIntervalMs ?? 500,
  });
  const app = createInventoryApp({
    householdEvents,
    useCases,
    access: useCases.access,
    tokens: ports.tokens,
    logger: options.logger,
    options: options.app,
    checkDatabase: scope.resolve<() => Promise<boolean>>(STORAGE_CHECK),
    itemsRouter: createItemsRouter({ useCases: itemUseCases, access: useCases.access }),
    registerItemsOpenApi,
    householdDataRouter: (http) =>
      createHouseholdDataRouter({
        useCases: householdDataUseCases(scope, ports, useCases.access),
        photoMaxBytes,
        ...(options.app.importSpoolDir ? { spoolDir: options.app.importSpoolDir } : {}),
        ...http,
      }),
    registerHouseholdDataOpenApi,
    ...(options.house ? { house: options.house } : {}),
    barcodeRoutes: barcodeRoutes(barcodeUseCases(scope, ports, useCases.access, options.logger)),
    shoppingListRoutes: shoppingListRoutes(shoppingListUseCases),
    itemPhotoRouter: (http) => createItemPhotoRouter({ useCases: itemPhotoUseCases, maxBytes: photoMaxBytes, ...http }),
    registerItemPhotoOpenApi: (registry) => registerItemPhotoOpenApi(registry, photoMaxBytes),
    ...(options.push ? { pushRoutes: pushRoutes(pushUseCases(scope, ports, useCases.access), options.push) } : {}),
  });
  return { app, householdEvents, ports, useCases, itemUseCases, shoppingListUseCases, itemPhotoUseCases };
}

/** Push subscriptions and members' push reminders over what `scope` holds. */
function pushUseCases(scope: DependencyContainer, ports: InventoryPorts, access: HouseholdAccess) {
  const push = scope.resolve<PushRepository>(PUSH_REPOSITORY);
  return {
    subscribeToPush: new SubscribeToPush({ push, clock: ports.clock }),
    unsubscribeFromPush: new UnsubscribeFromPush({ push }),
    getMemberReminder: new GetMemberReminder({ push, clock: ports.clock }, access),
    updateMemberReminder: new UpdateMemberReminder({ push, clock: ports.clock }, access),
  };
}

/** Reminder settings, export and import over what `scope` holds. */
function householdDataUseCases(
  scope: DependencyContainer,
  ports: InventoryPorts,
  access: HouseholdAccess,
): HouseholdDataUseCases {
  const reminders = scope.resolve<ReminderRepository>(REMINDER_REPOSITORY);
  const transfers = scope.resolve<HouseholdTransferStore>(HOUSEHOLD_TRANSFER_STORE);
  const shoppingList = scope.resolve<ShoppingListRepository>(SHOPPING_LIST_REPOSITORY);
  return {
    getReminderSettings: new GetReminderSettings({ reminders, clock: ports.clock }, access),
    updateReminderSettings: new UpdateReminderSettings({ reminders, clock: ports.clock }, access),
    exportHousehold: new ExportHousehold({ transfers, shoppingList }, access),
    importHousehold: new ImportHousehold(
      {
        transfers,
        shoppingList,
        ids: ports.ids,
        clock: ports.clock,
        photos: scope.resolve<PhotoProcessor>(PHOTO_PROCESSOR),
      },
      access,
    ),
  };
}

/**
 * The JWT signing secret: JWT_SECRET when set; otherwise (development) one generated on
 * first start and kept in `<DATA_DIR>/jwt-secret`, so tokens survive restarts.
 */
export async function resolveJwtSecret(
  config: Pick<Config, "JWT_SECRET" | "DATA_DIR">,
  logger: Logger,
): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  if (!keepsFiles(config.DATA_DIR)) return randomBytes(48).toString("base64url");
  const stored = await loadOrCreateSecret(path.join(config.DATA_DIR, "jwt-secret"), { bytes: 48, minLength: 32 });
  if (stored.created) logger.warn("JWT_SECRET is not set: generated a development secret", { file: stored.file });
  return stored.secret;
}

/**
 * The Web Push keys (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, else the pair in DATA_DIR). Processes in
 * hot standby share the database, not DATA_DIR: each would generate its own pair, and pushes
 * sent by one would be refused for subscriptions made with the other's key, so there the keys
 * must come from the environment (or the file be copied), which the log says.
 */
export async function resolveVapidKeys(
  config: Pick<Config, "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "DATA_DIR" | "DATABASE_URL" | "HOT_STANDBY">,
  logger: Logger,
): Promise<LoadedVapidKeys> {
  const keys = await loadOrCreateVapidKeys({
    publicKey: config.VAPID_PUBLIC_KEY,
    privateKey: config.VAPID_PRIVATE_KEY,
    dataDir: config.DATA_DIR,
  });
  if (keys.source === "generated") logger.info("Generated the Web Push (VAPID) keys", { file: keys.file });
  if (keys.source !== "environment" && config.DATABASE_URL && config.HOT_STANDBY) {
    logger.warn(
      `Web Push keys come from ${keys.file}: with several Hearth processes on one database (hot standby) every one must use the same pair; set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on each (or copy that file), else reminders fail after a failover`,
    );
  }
  return keys;
}

/**
 * The web app's build output (scripts/build-web.mjs writes it to web/dist at the package
 * root); src/composition and dist/composition sit at the same depth, so one path fits both.
 */
export const WEB_APP_DIR = fileURLToPath(new URL("../../web/dist/", import.meta.url));

/** The session lifetimes of the account use cases from the configuration. */
export function authSettings(config: Config): AuthSettings {
  return {
    refreshTokenTtlSeconds: config.JWT_REFRESH_TTL,
    refreshReuseIntervalSeconds: config.JWT_REFRESH_REUSE_INTERVAL,
  };
}

/** The HTTP options of the inventory app from the configuration. */
export function appOptions(
  config: Config,
  createStore?: InventoryAppOptions["rateLimits"]["createStore"],
): InventoryAppOptions {
  return {
    corsOrigins: config.CORS_ORIGINS,
    webAppDir: config.WEB_APP_DIR ? path.resolve(config.WEB_APP_DIR) : WEB_APP_DIR,
    refreshTokenTtlSeconds: config.JWT_REFRESH_TTL,
    eventStreams: { pollIntervalMs: config.INVENTORY_EVENTS_POLL_MS },
    photoMaxBytes: config.PHOTO_MAX_BYTES,
    ...(keepsFiles(config.DATA_DIR) ? { importSpoolDir: path.join(config.DATA_DIR, IMPORT_SPOOL_DIR) } : {}),
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
  /** Request metrics middleware (METRICS_ENABLED), installed before every other handler. */
  observe?: RequestHandler;
  /**
   * A container the inventory is already registered in (startHearth's); without one, a
   * container is built here over `database`.
   */
  container?: DependencyContainer;
  /** The engine's routes for admins, at /api/v1/house (startHearth passes the engine's). */
  house?: Router;
}

/**
 * The inventory API over the knex repositories (PostgreSQL or PGlite). Expects the
 * database to be migrated. `close()` releases what this opened (the Redis client), not
 * the database, which the caller owns.
 */
export async function buildInventoryApi(
  deps: BuildInventoryApiDeps,
): Promise<InventoryAssembly & { vapidKeys: LoadedVapidKeys; close(): Promise<void> }> {
  const { config, database, logger } = deps;
  const vapidKeys = await resolveVapidKeys(config, logger);
  const redis = config.REDIS_URL ? await connectRedisRateLimitStores(config.REDIS_URL, logger) : undefined;
  if (redis) logger.info("Inventory API rate limits are shared through Redis");
  const scope =
    deps.container ??
    createInventoryContainer(databaseModule(database, { listCacheSize: config.ITEM_LIST_CACHE_SIZE }), {
      jwtSecret: await resolveJwtSecret(config, logger),
      config,
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
  const assembly = assembleInventory(scope, {
    logger,
    settings: authSettings(config),
    app: { ...appOptions(config, redis?.createStore), ...(deps.observe ? { observe: deps.observe } : {}) },
    house: deps.house,
    push: { publicKey: vapidKeys.publicKey, allowPrivateEndpoints: config.PUSH_ALLOW_PRIVATE_ENDPOINTS },
  });
  return {
    ...assembly,
    vapidKeys,
    close: async () => {
      await assembly.householdEvents.stop();
      await redis?.close();
    },
  };
}
