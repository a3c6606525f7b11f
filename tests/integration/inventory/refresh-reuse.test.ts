import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import type { Database } from "../../../src/adapters/persistence/database.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

const WEB = { "X-Hearth-Client": "web" };

/** The refresh cookie's value in a response, or undefined. */
function refreshCookie(response: request.Response): string | undefined {
  const raw = response.headers["set-cookie"] as unknown as string[] | undefined;
  return raw
    ?.find((cookie) => cookie.startsWith("hearth_refresh="))
    ?.split(";")[0]
    ?.slice("hearth_refresh=".length);
}

function describeRefreshReuse(name: string, database: () => Database): void {
  describe(`refresh token reuse interval (${name})`, () => {
    let now = Date.parse("2026-11-25T12:00:00Z");
    const clock = { now: () => new Date(now) };
    // Two API instances over one database, as two Hearth processes would be: each derives successors itself.
    let apis: Awaited<ReturnType<typeof buildInventoryApi>>[] = [];

    before(async () => {
      const config = loadConfig({
        JWT_SECRET: "refresh-reuse-test-secret-0123456789abcdef",
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        RATE_LIMIT_PER_MINUTE: "1000",
      });
      apis = [
        await buildInventoryApi({ config, database: database(), logger: new MemoryLogger(), clock }),
        await buildInventoryApi({ config, database: database(), logger: new MemoryLogger(), clock }),
      ];
    });
    after(async () => {
      for (const api of apis) await api.close();
    });

    it("cookie refreshes racing on two instances all get the same successor; a replay after 30 s ends the family", async () => {
      const email = `web-${now}@example.com`;
      const login = await request(apis[0]!.app)
        .post("/api/v1/auth/web/register")
        .set(WEB)
        .send({ email, password: "password123", name: "Web" });
      expect(login.status, JSON.stringify(login.body)).to.equal(201);
      const cookie = `hearth_refresh=${refreshCookie(login)}`;
      const racing = await Promise.all(
        [0, 1, 0, 1].map((i) => request(apis[i]!.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie)),
      );
      expect(racing.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
      const successors = new Set(racing.map(refreshCookie));
      expect(successors.size, "one successor for all").to.equal(1);
      for (const r of racing) expect(r.body.user.email).to.equal(email);

      now += 30_000;
      const replay = await request(apis[1]!.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie);
      expect(replay.status).to.equal(401);
      const successor = await request(apis[0]!.app)
        .post("/api/v1/auth/web/refresh")
        .set(WEB)
        .set("Cookie", `hearth_refresh=${[...successors][0]}`);
      expect(successor.status, "the whole family is revoked").to.equal(401);
    });

    it("the mobile clients' bearer refresh gets the same grace", async () => {
      const email = `app-${now}@example.com`;
      const session = await request(apis[0]!.app)
        .post("/api/v1/auth/register")
        .send({ email, password: "password123", name: "App" });
      const racing = await Promise.all(
        [0, 1, 1, 0].map((i) =>
          request(apis[i]!.app).post("/api/v1/auth/refresh").send({ refreshToken: session.body.refreshToken }),
        ),
      );
      expect(racing.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
      expect(new Set(racing.map((r) => r.body.refreshToken)).size).to.equal(1);
      const successor = racing[0]!.body.refreshToken as string;
      const me = await request(apis[1]!.app)
        .get("/api/v1/users/me")
        .set("Authorization", `Bearer ${racing[3]!.body.accessToken}`);
      expect(me.status).to.equal(200);

      now += 29_000;
      const late = await request(apis[1]!.app)
        .post("/api/v1/auth/refresh")
        .send({ refreshToken: session.body.refreshToken });
      expect(late.body.refreshToken).to.equal(successor);
      now += 2_000;
      const replay = await request(apis[0]!.app)
        .post("/api/v1/auth/refresh")
        .send({ refreshToken: session.body.refreshToken });
      expect(replay.status).to.equal(401);
      expect(
        (await request(apis[0]!.app).post("/api/v1/auth/refresh").send({ refreshToken: successor })).status,
      ).to.equal(401);
    });
  });
}

describe("refresh tokens on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  describeRefreshReuse("PGlite", database);
});

describe("refresh tokens on the acquired database", () => {
  const database = useMigratedDatabase({ acquired: "refresh reuse" });
  describeRefreshReuse("acquired", database);
});
