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
    // The 429 describes the limit that refused it, in both header forms.
    expect(limited.headers["ratelimit-limit"]).to.equal("2");
    expect(limited.headers["ratelimit-remaining"]).to.equal("0");
    expect(limited.headers.ratelimit).to.match(/^limit=2, remaining=0, reset=\d+$/);
    // Other routes still answer: only /auth/* has the tighter limit.
    expect((await app.get("/api/v1/users/me").set(world.auth("owner"))).status).to.equal(200);
  });

  it("refreshing a session counts only towards the general limit, not the /auth one", async () => {
    const world = await buildWorld({ env: { RATE_LIMIT_PER_MINUTE: "100", AUTH_RATE_LIMIT_PER_MINUTE: "2" } });
    const app = request(world.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      statuses.push((await app.post("/api/v1/auth/refresh").send({ refreshToken: "not-a-token" })).status);
      statuses.push((await app.post("/api/v1/auth/web/refresh").set("X-Hearth-Client", "web")).status);
    }
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 401]);
    // The refreshes used none of the /auth budget: two logins still get their answer.
    const login = () => app.post("/api/v1/auth/login").send({ email: "nobody@example.com", password: "whatever" });
    expect((await login()).status).to.equal(401);
    expect((await login()).status).to.equal(401);
    expect((await login()).status).to.equal(429);
  });

  it("a rotating X-Forwarded-For does not get past the /auth limit when TRUST_PROXY names the proxy", async () => {
    // The test client connects from 127.0.0.1, which is not the named proxy: its header is ignored.
    const world = await buildWorld({
      env: { AUTH_RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "10.9.9.9, 192.168.0.0/16" },
    });
    const app = request(world.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await app
        .post("/api/v1/auth/login")
        .set("X-Forwarded-For", `203.0.113.${attempt + 1}`)
        .send({ email: "nobody@example.com", password: "whatever" });
      statuses.push(response.status);
    }
    expect(statuses).to.deep.equal([401, 401, 429, 429, 429, 429]);
  });

  it("a hop count trusts whatever a direct client claims (why the docs and the start-up warning advise against it)", async () => {
    const world = await buildWorld({ env: { AUTH_RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "1" } });
    const app = request(world.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await app
        .post("/api/v1/auth/login")
        .set("X-Forwarded-For", `203.0.113.${attempt + 1}`)
        .send({ email: "nobody@example.com", password: "whatever" });
      statuses.push(response.status);
    }
    expect(statuses).to.deep.equal([401, 401, 401, 401]);
  });
});
