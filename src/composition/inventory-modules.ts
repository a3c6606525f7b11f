/**
 * The inventory's registration modules: one per adapter family, each registering every
 * repository port under its token. The container built from one of them is the only place
 * where the inventory's adapters are chosen; buildInventoryApi, startHearth and the tests
 * resolve from it.
 */
import type { DependencyContainer } from "tsyringe";
import { type Database, isDatabaseUp } from "../adapters/persistence/database.js";
import { ItemListCache } from "../adapters/persistence/item-list-cache.js";
import { KnexFreezerRepository } from "../adapters/persistence/knex-freezer-repository.js";
import { KnexHouseholdRepository } from "../adapters/persistence/knex-household-repository.js";
import { KnexInviteRepository } from "../adapters/persistence/knex-invite-repository.js";
import { KnexItemRepository } from "../adapters/persistence/knex-item-repository.js";
import { KnexRefreshTokenRepository } from "../adapters/persistence/knex-refresh-token-repository.js";
import { KnexUserRepository } from "../adapters/persistence/knex-user-repository.js";
import { MemoryFreezerRepository } from "../adapters/persistence/memory-freezer-repository.js";
import { MemoryHouseholdRepository } from "../adapters/persistence/memory-household-repository.js";
import { MemoryInventoryStore } from "../adapters/persistence/memory-inventory-store.js";
import { MemoryInviteRepository } from "../adapters/persistence/memory-invite-repository.js";
import { MemoryItemRepository } from "../adapters/persistence/memory-item-repository.js";
import { MemoryRefreshTokenRepository } from "../adapters/persistence/memory-refresh-token-repository.js";
import { MemoryUserRepository } from "../adapters/persistence/memory-user-repository.js";
import { placementsFromFreezers } from "../application/inventory/items/item-placement.js";
import { FREEZER_REPOSITORY } from "../ports/freezer-repository.js";
import { CATEGORY_REPOSITORY } from "../ports/category-repository.js";
import { KnexCategoryRepository } from "../adapters/persistence/knex-category-repository.js";
import { MemoryCategoryRepository } from "../adapters/persistence/memory-category-repository.js";
import { HOUSEHOLD_REPOSITORY } from "../ports/household-repository.js";
import { INVITE_REPOSITORY } from "../ports/invite-repository.js";
import { ITEM_PLACEMENT_LOOKUP } from "../ports/item-placement.js";
import { ITEM_REPOSITORY } from "../ports/item-repository.js";
import { REFRESH_TOKEN_REPOSITORY } from "../ports/refresh-token-repository.js";
import { USER_REPOSITORY } from "../ports/user-repository.js";
import { KnexHouseholdTransferStore } from "../adapters/persistence/knex-household-transfer-store.js";
import { KnexInventorySummaries } from "../adapters/persistence/knex-inventory-summaries.js";
import { KnexReminderRepository } from "../adapters/persistence/knex-reminder-repository.js";
import { MemoryHouseholdTransferStore } from "../adapters/persistence/memory-household-transfer-store.js";
import { MemoryInventorySummaries } from "../adapters/persistence/memory-inventory-summaries.js";
import { MemoryReminderRepository } from "../adapters/persistence/memory-reminder-repository.js";
import { HOUSEHOLD_TRANSFER_STORE } from "../ports/household-transfer-store.js";
import { INVENTORY_SUMMARIES } from "../ports/inventory-summaries.js";
import { REMINDER_REPOSITORY } from "../ports/reminder-repository.js";
import { KnexInventoryEventFeed } from "../adapters/persistence/knex-inventory-event-feed.js";
import { INVENTORY_EVENT_FEED } from "../ports/inventory-event-feed.js";
import { KnexBarcodeRepository } from "../adapters/persistence/knex-barcode-repository.js";
import { MemoryBarcodeRepository } from "../adapters/persistence/memory-barcode-repository.js";
import { BARCODE_REPOSITORY } from "../ports/barcode-repository.js";
import { KnexShoppingListRepository } from "../adapters/persistence/knex-shopping-list-repository.js";
import { MemoryShoppingListRepository } from "../adapters/persistence/memory-shopping-list-repository.js";
import { SHOPPING_LIST_REPOSITORY } from "../ports/shopping-list-repository.js";
import { KnexItemPhotoRepository } from "../adapters/persistence/knex-item-photo-repository.js";
import { MemoryItemPhotoRepository } from "../adapters/persistence/memory-item-photo-repository.js";
import { ITEM_PHOTO_REPOSITORY } from "../ports/item-photo-repository.js";
import { KnexPushRepository } from "../adapters/persistence/knex-push-repository.js";
import { MemoryPushRepository } from "../adapters/persistence/memory-push-repository.js";
import { PUSH_REPOSITORY } from "../ports/push-repository.js";

/** Tokens for what only composition knows. */
export const DATABASE = Symbol("Database");
/** `() => Promise<boolean>`: whether the storage answers, for GET /health. */
export const STORAGE_CHECK = Symbol("StorageCheck");
/** The in-memory module's shared rows, for tests that seed or inspect them. */
export const MEMORY_STORE = Symbol("MemoryInventoryStore");

/** Registers one adapter family's repositories into a container. */
export type InventoryModule = (scope: DependencyContainer) => void;

export interface KnexModuleOptions {
  /** Item-list pages kept for reuse (ITEM_LIST_CACHE_SIZE); 0 turns the cache off. */
  listCacheSize?: number;
}

function knexRepositories(database: Database, options: KnexModuleOptions): InventoryModule {
  return (scope) => {
    const knex = database.knex;
    const freezers = new KnexFreezerRepository(knex);
    const categories = new KnexCategoryRepository(knex);
    scope.register(DATABASE, { useValue: database });
    scope.register(STORAGE_CHECK, { useValue: () => isDatabaseUp(knex) });
    scope.register(USER_REPOSITORY, { useValue: new KnexUserRepository(knex) });
    scope.register(REFRESH_TOKEN_REPOSITORY, { useValue: new KnexRefreshTokenRepository(knex) });
    scope.register(HOUSEHOLD_REPOSITORY, { useValue: new KnexHouseholdRepository(knex) });
    scope.register(INVITE_REPOSITORY, { useValue: new KnexInviteRepository(knex) });
    scope.register(FREEZER_REPOSITORY, { useValue: freezers });
    scope.register(CATEGORY_REPOSITORY, { useValue: categories });
    scope.register(ITEM_PLACEMENT_LOOKUP, { useValue: placementsFromFreezers(freezers, categories) });
    const items = new KnexItemRepository(knex, { listCache: new ItemListCache(options.listCacheSize ?? 0) });
    scope.register(ITEM_REPOSITORY, { useValue: items });
    scope.register(ITEM_PHOTO_REPOSITORY, { useValue: new KnexItemPhotoRepository(knex, items) });
    scope.register(REMINDER_REPOSITORY, { useValue: new KnexReminderRepository(knex) });
    scope.register(HOUSEHOLD_TRANSFER_STORE, {
      useValue: new KnexHouseholdTransferStore(knex, { chunked: database.kind === "pglite" }),
    });
    scope.register(INVENTORY_SUMMARIES, { useValue: new KnexInventorySummaries(knex) });
    scope.register(INVENTORY_EVENT_FEED, { useValue: new KnexInventoryEventFeed(knex) });
    scope.register(BARCODE_REPOSITORY, { useValue: new KnexBarcodeRepository(knex) });
    scope.register(SHOPPING_LIST_REPOSITORY, { useValue: new KnexShoppingListRepository(knex) });
    scope.register(PUSH_REPOSITORY, { useValue: new KnexPushRepository(knex) });
  };
}

/** knex on a PostgreSQL server (DATABASE_URL). */
export function postgresModule(database: Database, options: KnexModuleOptions = {}): InventoryModule {
  if (database.kind !== "postgres") throw new Error("postgresModule needs a PostgreSQL database");
  return knexRepositories(database, options);
}

/**
 * knex on embedded PGlite (DATA_DIR). The same repositories as on PostgreSQL: the
 * migrations and queries are written for both, and the contract suites run on both.
 */
export function pgliteModule(database: Database, options: KnexModuleOptions = {}): InventoryModule {
  if (database.kind !== "pglite") throw new Error("pgliteModule needs a PGlite database");
  return knexRepositories(database, options);
}

/** The module for whichever database `openDatabase` opened. */
export function databaseModule(database: Database, options: KnexModuleOptions = {}): InventoryModule {
  return database.kind === "postgres" ? postgresModule(database, options) : pgliteModule(database, options);
}

/**
 * Everything in process memory, sharing one store so cross-table rules (cascades, "the
 * freezer still holds items") behave as in PostgreSQL. For tests and demos.
 */
export function memoryModule(store: MemoryInventoryStore = new MemoryInventoryStore()): InventoryModule {
  return (scope) => {
    const users = new MemoryUserRepository(store);
    const households = new MemoryHouseholdRepository(store);
    const freezers = new MemoryFreezerRepository(store);
    const categories = new MemoryCategoryRepository(store);
    const placements = placementsFromFreezers(freezers, categories);
    const items = new MemoryItemRepository(users, households, placements, store.outbox);
    const reminders = new MemoryReminderRepository();
    store.items = items;
    store.itemsIn = (where) => items.hasItemsIn(where);
    store.uncategorise = (householdId, categoryId) => items.uncategorise(householdId, categoryId);
    store.householdCascades.push((householdId) => items.deleteHousehold(householdId));
    store.householdCascades.push((householdId) => reminders.deleteHousehold(householdId));
    scope.register(MEMORY_STORE, { useValue: store });
    scope.register(INVENTORY_EVENT_FEED, { useValue: store.outbox });
    scope.register(STORAGE_CHECK, { useValue: async () => true });
    scope.register(USER_REPOSITORY, { useValue: users });
    scope.register(REFRESH_TOKEN_REPOSITORY, { useValue: new MemoryRefreshTokenRepository(store) });
    scope.register(HOUSEHOLD_REPOSITORY, { useValue: households });
    scope.register(INVITE_REPOSITORY, { useValue: new MemoryInviteRepository(store) });
    scope.register(FREEZER_REPOSITORY, { useValue: freezers });
    scope.register(CATEGORY_REPOSITORY, { useValue: categories });
    scope.register(ITEM_PLACEMENT_LOOKUP, { useValue: placements });
    scope.register(ITEM_REPOSITORY, { useValue: items });
    const photos = new MemoryItemPhotoRepository(items, households);
    items.deleteCascades.push((itemId) => photos.forget(itemId));
    store.photos = photos;
    scope.register(ITEM_PHOTO_REPOSITORY, { useValue: photos });
    scope.register(REMINDER_REPOSITORY, { useValue: reminders });
    const barcodes = new MemoryBarcodeRepository();
    const shoppingList = new MemoryShoppingListRepository(store);
    scope.register(HOUSEHOLD_TRANSFER_STORE, {
      useValue: new MemoryHouseholdTransferStore(store, items, barcodes, shoppingList),
    });
    scope.register(INVENTORY_SUMMARIES, { useValue: new MemoryInventorySummaries(store, items) });
    store.householdCascades.push((householdId) => barcodes.deleteHousehold(householdId));
    scope.register(BARCODE_REPOSITORY, { useValue: barcodes });
    store.householdCascades.push((householdId) => shoppingList.deleteHousehold(householdId));
    scope.register(SHOPPING_LIST_REPOSITORY, { useValue: shoppingList });
    const push = new MemoryPushRepository(store);
    store.householdCascades.push((householdId) => push.deleteHousehold(householdId));
    store.userCascades.push((userId) => push.deleteUser(userId));
    scope.register(PUSH_REPOSITORY, { useValue: push });
  };
}
