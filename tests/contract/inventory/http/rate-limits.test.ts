import { expect } from "chai";
import request from "supertest";
import { buildWorld } from "./inventory-http-world.js";

describe("inventory HTTP rate limits (in-process counters)", () => {
  it("limits each signed-in user separately on every route, with RateLimit headers and a 429 with Retry-After", async () => {
    const world = await buildWorld({ env: { RATE_LIMIT_PER_MINUTE: "3" } });
    const app = request(world.app);
    const first = await app.get("/api/v1/households").set(world.auth("owner"));
    expect(first.status).to.equal(200);
    expect(first.headers["ratelimit-limit"]).to.equal("3");
    expect(first.headers["ratelimit-remaining"]).to.equal("2");
    expect(first.headers).to.have.property("ratelimit-reset");
    expect(first.headers.ratelimit).to.match(/limit=3, remaining=2, reset=\d+/);
    await app.get("/api/v1/users/me").set(world.auth("owner"));
    await app.get(`/api/v1/households/${world.householdId}`).set(world.auth("owner"));
    const limited = await app.get("/api/v1/households").set(world.auth("owner"));
    expect(limited.status).to.equal(429);
    expect(limited.body).to.include({ statusCode: 429, error: "Too Many Requests" });
    expect(Number(limited.headers["retry-after"])).to.be.within(1, 60);
    // Another user (same address) has their own budget.
    expect((await app.get("/api/v1/households").set(world.auth("member"))).status).to.equal(200);
  });

  it("limits anonymous callers per address, and /auth/* additionally by AUTH_RATE_LIMIT_PER_MINUTE", async () => {
    const world = await buildWorld({ env: { RATE_LIMIT_PER_MINUTE: "100", AUTH_RATE_LIMIT_PER_MINUTE: "2" } });
    const app = request(world.app);
    const login = () => app.post("/api/v1/auth/login").send({ email: "nobody@example.com", password: "whatever" });
    expect((await login()).status).to.equal(401);
    expect((await login()).status).to.equal(401);
    const limited = await login();
    expect(limited.status).to.equal(429);
    expect(limited.headers).to.have.property("retry-after");
    // Other routes still answer: only /auth/* has the tighter limit.
    expect((await app.get("/api/v1/users/me").set(world.auth("owner"))).status).to.equal(200);
  });
});
