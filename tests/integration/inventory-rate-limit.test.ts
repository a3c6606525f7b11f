import { createServer } from "node:net";
import { createId } from "@paralleldrive/cuid2";
import { expect } from "chai";
import request from "supertest";
import { connectRedisRateLimitStores } from "../../src/adapters/http/inventory/redis-rate-limit-store.js";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { MemoryInventoryStore } from "../../src/adapters/persistence/memory-inventory-store.js";
import { loadConfig } from "../../src/composition/config.js";
import { buildMemoryInventoryApi } from "../support/memory-inventory-api.js";
import { acquireRedis, type TestRedis } from "../support/test-servers.js";

/**
 * Two app instances (as two Hearth processes behind one load balancer) with one Redis:
 * the per-user budget is shared, so requests spread over both still hit the limit.
 */
describe("inventory rate limits shared through Redis", () => {
  let redis: TestRedis | null;
  const closers: (() => Promise<void>)[] = [];

  before(async function () {
    this.timeout(120_000);
    redis = await acquireRedis("inventory rate limits");
  });
  after(async () => {
    for (const close of closers) await close();
    await redis?.release();
  });

  async function twoInstances(limit: number, authLimit: number) {
    if (!redis) throw new Error("no Redis available (see the notice above)");
    // One database shared by both instances, as two processes would share PostgreSQL.
    const store = new MemoryInventoryStore();
    const config = loadConfig({
      JWT_SECRET: "redis-rate-limit-test-secret-0123456789",
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: String(limit),
      AUTH_RATE_LIMIT_PER_MINUTE: String(authLimit),
    });
    const first = await buildMemoryInventoryApi({ config, logger: new MemoryLogger(), store });
    const second = await buildMemoryInventoryApi({ config, logger: new MemoryLogger(), store });
    closers.push(first.close, second.close);
    return { first, second };
  }

  it("counts one user's requests across both instances", async function () {
    if (!redis) this.skip();
    const { first, second } = await twoInstances(4, 1000);
    // A fresh user per run, so counters left in Redis by earlier runs do not interfere.
    const session = await first.useCases.register.execute({
      email: `${createId()}@example.com`,
      password: "password123",
      name: "R",
    });
    const auth = { Authorization: `Bearer ${session.accessToken}` };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await request(first.app).get("/api/v1/users/me").set(auth)).status);
      statuses.push((await request(second.app).get("/api/v1/users/me").set(auth)).status);
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
    const limited = await request(second.app).get("/api/v1/households").set(auth);
    expect(limited.status).to.equal(429);
    expect(limited.headers).to.have.property("retry-after");
    expect(limited.headers["ratelimit-limit"]).to.equal("4");
    // Another user is unaffected on either instance.
    const other = await first.useCases.register.execute({
      email: `${createId()}@example.com`,
      password: "password123",
      name: "S",
    });
    expect(
      (
        await request(second.app)
          .get("/api/v1/users/me")
          .set({ Authorization: `Bearer ${other.accessToken}` })
      ).status,
    ).to.equal(200);
  });

  it("shares the /auth/* per-address budget across both instances", async function () {
    if (!redis) this.skip();
    const { first, second } = await twoInstances(1000, 3);
    // Each run uses its own client address (via X-Forwarded-For, trusted here) so old counters do not leak in.
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    for (const app of [first.app, second.app]) app.set("trust proxy", true);
    const login = (app: typeof first.app) =>
      request(app)
        .post("/api/v1/auth/login")
        .set("X-Forwarded-For", address)
        .send({ email: "x@example.com", password: "y" });
    const statuses = [
      await login(first.app),
      await login(second.app),
      await login(first.app),
      await login(second.app),
    ].map((r) => r.status);
    expect(statuses).to.deep.equal([401, 401, 401, 429]);
  });

  it("stops the boot with a clear error when REDIS_URL does not answer", async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    try {
      await connectRedisRateLimitStores(`redis://127.0.0.1:${port}`, new MemoryLogger(), 500);
      expect.fail("expected the connection to fail");
    } catch (error) {
      expect((error as Error).message).to.match(/did not answer|ECONNREFUSED/);
    }
  });
});
