import { referencedTimer, withinTime } from "../../../ports/timer.js";
import type { Store } from "express-rate-limit";
import type { Logger } from "../../../ports/logger.js";

export interface RedisRateLimitStores {
  /** A store for one limiter; every limiter needs its own prefix. */
  createStore(prefix: string): Store;
  close(): Promise<void>;
}

/**
 * Rate-limit counters in Redis, so several Hearth processes behind one load balancer
 * count together. One node-redis connection serves every limiter.
 */
export async function connectRedisRateLimitStores(
  url: string,
  logger: Logger,
  connectTimeoutMs = 10_000,
): Promise<RedisRateLimitStores> {
  // Loaded only when REDIS_URL is set: node-redis and its modules add ~40 MB of RSS to a
  // process that does not use them (docs/performance.md, footprint).
  const [{ createClient }, { RedisStore }] = await Promise.all([import("redis"), import("rate-limit-redis")]);
  const client = createClient({ url });
  client.on("error", (error: unknown) => logger.warn("Redis (rate limits) connection error", { err: error }));
  // node-redis keeps retrying an initial connection forever; a configured but unreachable
  // Redis should stop the boot with a clear message instead of hanging it.
  try {
    await withinTime(
      client.connect(),
      connectTimeoutMs,
      () => {
        throw new Error(`Redis at REDIS_URL did not answer within ${connectTimeoutMs} ms`);
      },
      referencedTimer,
    );
  } catch (error) {
    await client.disconnect().catch(() => undefined);
    throw error;
  }
  return {
    createStore: (prefix) =>
      new RedisStore({
        prefix,
        sendCommand: (...args: string[]) => client.sendCommand(args),
      }),
    close: async () => {
      if (client.isOpen) await client.quit();
    },
  };
}
