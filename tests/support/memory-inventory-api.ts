/**
 * The inventory API over the in-memory module, for HTTP contract tests: the same
 * container and assembly as the real process, with memoryModule in place of the database.
 */
import webpush from "web-push";
import type { InventoryAppOptions } from "../../src/adapters/http/inventory/inventory-app.js";
import { connectRedisRateLimitStores } from "../../src/adapters/http/inventory/redis-rate-limit-store.js";
import { MemoryInventoryStore } from "../../src/adapters/persistence/memory-inventory-store.js";
import { ScryptPasswordHasher } from "../../src/adapters/security/scrypt-password-hasher.js";
import type { Config } from "../../src/composition/config.js";
import {
  appOptions,
  assembleInventory,
  authSettings,
  createInventoryContainer,
  type InventoryAssembly,
} from "../../src/composition/inventory-api.js";
import { memoryModule, STORAGE_CHECK } from "../../src/composition/inventory-modules.js";
import type { Clock } from "../../src/ports/clock.js";
import type { Logger } from "../../src/ports/logger.js";
import type { PasswordHasher } from "../../src/ports/password-hasher.js";

export interface MemoryInventoryApiOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Defaults to scrypt with low cost, so tests stay fast. */
  passwords?: PasswordHasher;
  /** Shared rows; pass one to seed or inspect data, or to run two apps over one "database". */
  store?: MemoryInventoryStore;
  /** Health answer; default "up". */
  checkDatabase?: () => Promise<boolean>;
  /** Extra app options (request metrics). */
  observe?: InventoryAppOptions["observe"];
}

/** One VAPID key pair for every in-memory API of a test run (key generation is not free). */
export const TEST_VAPID_KEYS = webpush.generateVAPIDKeys();

export async function buildMemoryInventoryApi(
  options: MemoryInventoryApiOptions,
): Promise<InventoryAssembly & { store: MemoryInventoryStore; close(): Promise<void> }> {
  const store = options.store ?? new MemoryInventoryStore();
  const redis = options.config.REDIS_URL
    ? await connectRedisRateLimitStores(options.config.REDIS_URL, options.logger)
    : undefined;
  const scope = createInventoryContainer(memoryModule(store), {
    jwtSecret: options.config.JWT_SECRET ?? "memory-inventory-api-test-secret-0123456789",
    config: options.config,
    passwords: options.passwords ?? new ScryptPasswordHasher({ cost: 1024, blockSize: 8, parallelization: 1 }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  if (options.checkDatabase) scope.register(STORAGE_CHECK, { useValue: options.checkDatabase });
  const assembly = assembleInventory(scope, {
    logger: options.logger,
    settings: authSettings(options.config),
    app: {
      ...appOptions(options.config, redis?.createStore),
      ...(options.observe ? { observe: options.observe } : {}),
    },
    push: {
      publicKey: TEST_VAPID_KEYS.publicKey,
      allowPrivateEndpoints: options.config.PUSH_ALLOW_PRIVATE_ENDPOINTS,
    },
  });
  return {
    ...assembly,
    store,
    close: async () => {
      await assembly.householdEvents.stop();
      await redis?.close();
    },
  };
}
