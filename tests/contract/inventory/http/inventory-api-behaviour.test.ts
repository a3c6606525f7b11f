import { readFileSync } from "node:fs";
import { expect } from "chai";
import jwt from "jsonwebtoken";
import request from "supertest";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../../../src/composition/config.js";
import { buildMemoryInventoryApi } from "../../../support/memory-inventory-api.js";
import { buildWorld, type InventoryWorld, PASSWORD } from "./inventory-http-world.js";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("inventory HTTP behaviour", () => {
  let world: InventoryWorld;
  beforeEach(async () => {
    world = await buildWorld();
  });

  describe("accounts and tokens", () => {
    it("registers (201, lower-cased email), refuses a taken email (409), signs in", async () => {
      const app = request(world.app);
      const created = await app
        .post("/api/v1/auth/register")
        .send({ email: "New@Example.com", password: "password123", name: "New" });
      expect(created.status).to.equal(201);
      expect(Object.keys(created.body).sort()).to.deep.equal(["accessToken", "refreshToken", "user"]);
      expect(created.body.user).to.deep.equal({ id: created.body.user.id, email: "new@example.com", name: "New" });
      expect(
        (await app.post("/api/v1/auth/register").send({ email: "NEW@example.com", password: "password123", name: "X" }))
          .status,
      ).to.equal(409);
      const login = await app.post("/api/v1/auth/login").send({ email: "new@EXAMPLE.com", password: "password123" });
      expect(login.status).to.equal(200);
      expect(login.body.user).to.deep.equal(created.body.user);
    });

    it("answers 401 Invalid credentials alike for unknown email and wrong password", async () => {
      const app = request(world.app);
      const wrong = await app
        .post("/api/v1/auth/login")
        .send({ email: world.users.member.email, password: "wrong password" });
      const unknown = await app
        .post("/api/v1/auth/login")
        .send({ email: "nobody@example.com", password: "wrong password" });
      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.body).to.deep.equal(unknown.body);
      expect(wrong.body.message).to.equal("Invalid credentials");
    });

    it("rotates refresh tokens; reusing a rotated one after the reuse interval revokes the family", async () => {
      world = await buildWorld({ env: { JWT_REFRESH_REUSE_INTERVAL: "0" } });
      const app = request(world.app);
      const first = world.users.member.refreshToken;
      const rotated = await app.post("/api/v1/auth/refresh").send({ refreshToken: first });
      expect(rotated.status).to.equal(200);
      expect(Object.keys(rotated.body).sort()).to.deep.equal(["accessToken", "refreshToken"]);
      const me = await app.get("/api/v1/users/me").set("Authorization", `Bearer ${rotated.body.accessToken}`);
      expect(me.body.id).to.equal(world.users.member.id);
      expect((await app.post("/api/v1/auth/refresh").send({ refreshToken: first })).status).to.equal(401);
      expect(
        (await app.post("/api/v1/auth/refresh").send({ refreshToken: rotated.body.refreshToken })).status,
      ).to.equal(401);
    });

    it("logs out: the refresh token stops working", async () => {
      const app = request(world.app);
      const out = await app.post("/api/v1/auth/logout").send({ refreshToken: world.users.member.refreshToken });
      expect(out.status).to.equal(200);
      expect(out.body.message).to.be.a("string");
      expect(
        (await app.post("/api/v1/auth/refresh").send({ refreshToken: world.users.member.refreshToken })).status,
      ).to.equal(401);
    });

    it("401 for missing, malformed, wrongly signed, expired and 'none' access tokens", async () => {
      const app = request(world.app);
      const sub = world.users.member.id;
      const tokens = [
        undefined,
        "Bearer",
        "Bearer not.a.jwt",
        `Bearer ${jwt.sign({}, "another-secret-another-secret-123456", { subject: sub })}`,
        `Bearer ${jwt.sign({}, "http-contract-test-secret-0123456789abcdef", { subject: sub, expiresIn: -10 })}`,
        `Bearer ${jwt.sign({ sub }, "", { algorithm: "none" })}`,
        `Basic ${Buffer.from("a:b").toString("base64")}`,
      ];
      for (const header of tokens) {
        const call = app.get("/api/v1/users/me");
        const response = await (header ? call.set("Authorization", header) : call);
        expect(response.status, String(header)).to.equal(401);
        expect(response.body).to.include({ statusCode: 401, error: "Unauthorized" });
      }
    });

    it("issues HS256 access tokens whose sub is the user id", async () => {
      const decoded = jwt.decode(world.users.owner.accessToken, { complete: true });
      expect(decoded?.header.alg).to.equal("HS256");
      const payload = decoded!.payload as jwt.JwtPayload;
      expect(payload.sub).to.equal(world.users.owner.id);
      expect(payload.exp! - payload.iat!).to.equal(900);
    });

    it("gets, renames and deletes the current user; a deleted user's token and password stop working", async () => {
      const app = request(world.app);
      const auth = world.auth("member");
      expect((await app.get("/api/v1/users/me").set(auth)).body).to.deep.equal({
        id: world.users.member.id,
        email: "member@example.com",
        name: "member",
        role: "member",
      });
      expect((await app.patch("/api/v1/users/me").set(auth).send({ name: "Mem" })).body.name).to.equal("Mem");
      const deleted = await app.delete("/api/v1/users/me").set(auth);
      expect(deleted.status).to.equal(200);
      expect(deleted.body.message).to.be.a("string");
      expect((await app.get("/api/v1/users/me").set(auth)).status).to.equal(401);
      expect((await app.get("/api/v1/households").set(auth)).status).to.equal(401);
      expect((await app.post("/api/v1/households").set(auth).send({ name: "Ghost town" })).status).to.equal(401);
      expect((await app.get(`/api/v1/households/${world.householdId}`).set(auth)).status).to.equal(403);
      expect(
        (await app.post("/api/v1/auth/login").send({ email: "member@example.com", password: PASSWORD })).status,
      ).to.equal(401);
      const detail = await app.get(`/api/v1/households/${world.householdId}`).set(world.auth("owner"));
      expect(detail.body.members.map((m: { userId: string }) => m.userId)).to.deep.equal([world.users.owner.id]);
      expect(world.store.users.get(world.users.member.id)?.name).to.equal("Deleted user");
    });

    it("409 on DELETE /users/me while owning a household", async () => {
      const response = await request(world.app).delete("/api/v1/users/me").set(world.auth("owner"));
      expect(response.status).to.equal(409);
    });
  });

  describe("installation admins", () => {
    const role = async (caller: "owner" | "member" | "outsider") =>
      (await request(world.app).get("/api/v1/users/me").set(world.auth(caller))).body.role;

    it("makes the first account registered the admin and shows the role on /users/me", async () => {
      expect(await role("owner")).to.equal("admin");
      expect(await role("member")).to.equal("member");
      const renamed = await request(world.app).patch("/api/v1/users/me").set(world.auth("owner")).send({ name: "O" });
      expect(renamed.body).to.include({ role: "admin", name: "O" });
    });

    it("lets an admin list accounts, grant admin and take it back; the new admin may do the same", async () => {
      const app = request(world.app);
      const list = await app.get("/api/v1/admin/users?limit=2").set(world.auth("owner"));
      expect(list.status).to.equal(200);
      expect(list.body).to.include({ total: 4, limit: 2, offset: 0 });
      expect(list.body.accounts[0]).to.deep.equal({
        id: world.users.owner.id,
        email: "owner@example.com",
        name: "owner",
        role: "admin",
      });
      const granted = await app.put(`/api/v1/admin/admins/${world.users.member.id}`).set(world.auth("owner"));
      expect(granted.status).to.equal(200);
      expect(granted.body).to.include({ id: world.users.member.id, role: "admin" });
      expect(await role("member")).to.equal("admin");
      const byNewAdmin = await app.delete(`/api/v1/admin/admins/${world.users.owner.id}`).set(world.auth("member"));
      expect(byNewAdmin.body).to.include({ id: world.users.owner.id, role: "member" });
      expect((await app.get("/api/v1/admin/users").set(world.auth("owner"))).status).to.equal(403);
    });

    it("refuses to take admin from the only admin, themselves included, with 409 LAST_ADMIN", async () => {
      const response = await request(world.app)
        .delete(`/api/v1/admin/admins/${world.users.owner.id}`)
        .set(world.auth("owner"));
      expect(response.status).to.equal(409);
      expect(response.body.message).to.match(/only admin/);
      expect(await role("owner")).to.equal("admin");
    });

    it("answers 403 ADMIN_REQUIRED to a member and changes nothing", async () => {
      const response = await request(world.app)
        .put(`/api/v1/admin/admins/${world.users.member.id}`)
        .set(world.auth("member"));
      expect(response.status).to.equal(403);
      expect(response.body.message).to.match(/admin/);
      expect(await role("member")).to.equal("member");
    });

    it("answers 404 for an unknown or deleted account and 400 for a malformed id", async () => {
      const app = request(world.app);
      expect((await app.put("/api/v1/admin/admins/zzzzzzzzzzzzzzzzzzzzzzzz").set(world.auth("owner"))).status).to.equal(
        404,
      );
      await app.delete("/api/v1/users/me").set(world.auth("outsider"));
      const deleted = await app.put(`/api/v1/admin/admins/${world.users.outsider.id}`).set(world.auth("owner"));
      expect(deleted.status).to.equal(404);
      expect(deleted.body.message).to.match(/No account/);
      expect((await app.put("/api/v1/admin/admins/NOT-AN-ID").set(world.auth("owner"))).status).to.equal(400);
      expect((await app.get("/api/v1/admin/users?limit=0").set(world.auth("owner"))).status).to.equal(400);
    });
  });

  describe("households", () => {
    it("creates (201 Household) and lists for the caller", async () => {
      const app = request(world.app);
      const created = await app.post("/api/v1/households").set(world.auth("outsider")).send({ name: "Cabin" });
      expect(created.status).to.equal(201);
      expect(Object.keys(created.body).sort()).to.deep.equal(["createdAt", "id", "name", "ownerId", "timeZone"]);
      expect(created.body).to.include({ name: "Cabin", ownerId: world.users.outsider.id });
      expect(created.body.createdAt).to.match(ISO);
      const list = await app.get("/api/v1/households").set(world.auth("outsider"));
      expect(list.body).to.deep.equal([created.body]);
    });

    it("returns the detail with members ordered by joinedAt", async () => {
      const detail = await request(world.app).get(`/api/v1/households/${world.householdId}`).set(world.auth("member"));
      expect(detail.status).to.equal(200);
      expect(detail.body).to.include({ id: world.householdId, name: "Home", ownerId: world.users.owner.id });
      expect(
        detail.body.members.map((m: Record<string, unknown>) => [m.userId, m.role, m.name, m.email]),
      ).to.deep.equal([
        [world.users.owner.id, "OWNER", "owner", "owner@example.com"],
        [world.users.member.id, "MEMBER", "member", "member@example.com"],
      ]);
      for (const member of detail.body.members) {
        expect(Object.keys(member).sort()).to.deep.equal(["email", "id", "joinedAt", "name", "role", "userId"]);
        expect(member.joinedAt).to.match(ISO);
      }
    });

    it("transfers ownership: returns the Household with the new ownerId; roles swap", async () => {
      const app = request(world.app);
      const response = await app
        .patch(`/api/v1/households/${world.householdId}/transfer`)
        .set(world.auth("owner"))
        .send({ newOwnerId: world.users.member.id });
      expect(response.status).to.equal(200);
      expect(response.body.ownerId).to.equal(world.users.member.id);
      const detail = await app.get(`/api/v1/households/${world.householdId}`).set(world.auth("owner"));
      expect(detail.body.members.map((m: Record<string, unknown>) => m.role)).to.deep.equal(["MEMBER", "OWNER"]);
      expect(
        (await app.patch(`/api/v1/households/${world.householdId}`).set(world.auth("owner")).send({ name: "X" }))
          .status,
      ).to.equal(403);
      expect(
        (await app.patch(`/api/v1/households/${world.householdId}`).set(world.auth("member")).send({ name: "X" }))
          .status,
      ).to.equal(200);
    });

    it("deletes a household and everything under it", async () => {
      const app = request(world.app);
      const response = await app.delete(`/api/v1/households/${world.householdId}`).set(world.auth("owner"));
      expect(response.status).to.equal(200);
      expect(response.body.message).to.be.a("string");
      expect(world.store.households.has(world.householdId)).to.equal(false);
      expect(world.store.freezers.has(world.freezerId)).to.equal(false);
      expect(world.store.compartments.has(world.compartmentId)).to.equal(false);
      expect(world.store.invites.has(world.inviteId)).to.equal(false);
      expect([...world.store.memberships.values()].some((m) => m.householdId === world.householdId)).to.equal(false);
      expect((await app.get(`/api/v1/households/${world.householdId}`).set(world.auth("owner"))).status).to.equal(403);
    });
  });

  describe("invites", () => {
    it("creates {id, householdId, code, expiresAt, createdAt} valid 7 days; lists active ones", async () => {
      const app = request(world.app);
      const created = await app.post(`/api/v1/households/${world.householdId}/invites`).set(world.auth("owner"));
      expect(created.status).to.equal(201);
      expect(Object.keys(created.body).sort()).to.deep.equal(["code", "createdAt", "expiresAt", "householdId", "id"]);
      expect(created.body.code).to.match(/^[A-Za-z0-9_-]{22,}$/);
      expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).to.equal(7 * 86400 * 1000);
      const list = await app.get(`/api/v1/households/${world.householdId}/invites`).set(world.auth("owner"));
      expect(list.body.map((i: { id: string }) => i.id)).to.include.members([created.body.id, world.inviteId]);
    });

    it("accepts once (200 Household), then 410; revoked invites are 404", async () => {
      const app = request(world.app);
      const accepted = await app
        .post("/api/v1/invites/accept")
        .set(world.auth("outsider"))
        .send({ code: world.inviteCode });
      expect(accepted.status).to.equal(200);
      expect(accepted.body).to.deep.include({ id: world.householdId, ownerId: world.users.owner.id, name: "Home" });
      const again = await app
        .post("/api/v1/invites/accept")
        .set(world.auth("stranger"))
        .send({ code: world.inviteCode });
      expect(again.status).to.equal(410);
      const other = await app
        .post("/api/v1/invites/accept")
        .set(world.auth("outsider"))
        .send({ code: world.other.inviteCode });
      expect(other.status).to.equal(200);
      await app
        .delete(`/api/v1/households/${world.other.householdId}/invites/${world.other.inviteId}`)
        .set(world.auth("stranger"));
      const list = await app.get(`/api/v1/households/${world.householdId}/invites`).set(world.auth("owner"));
      expect(list.body.map((i: { id: string }) => i.id)).to.not.include(world.inviteId);
    });
  });

  describe("freezers and compartments", () => {
    it("creates freezers {id, householdId, name, description, position, createdAt} and compartments {id, freezerId, name, position}", async () => {
      const app = request(world.app);
      const freezer = await app
        .post(`/api/v1/households/${world.householdId}/freezers`)
        .set(world.auth("member"))
        .send({ name: "Upright" });
      expect(freezer.status).to.equal(201);
      expect(Object.keys(freezer.body).sort()).to.deep.equal([
        "createdAt",
        "description",
        "householdId",
        "id",
        "name",
        "position",
      ]);
      expect(freezer.body).to.include({ householdId: world.householdId, name: "Upright", description: null });
      const base = `/api/v1/households/${world.householdId}/freezers/${freezer.body.id}/compartments`;
      const bottom = await app.post(base).set(world.auth("member")).send({ name: "Bottom", position: 3 });
      const top = await app.post(base).set(world.auth("member")).send({ name: "Top" });
      expect(top.status).to.equal(201);
      expect(top.body).to.deep.equal({ id: top.body.id, freezerId: freezer.body.id, name: "Top", position: 0 });
      const detail = await app
        .get(`/api/v1/households/${world.householdId}/freezers/${freezer.body.id}`)
        .set(world.auth("member"));
      expect(detail.body.compartments.map((c: { id: string }) => c.id)).to.deep.equal([top.body.id, bottom.body.id]);
      const list = await app.get(base).set(world.auth("member"));
      expect(list.body.map((c: { name: string }) => c.name)).to.deep.equal(["Top", "Bottom"]);
    });

    it("puts a new freezer last and reorders freezers with PATCH position", async () => {
      const app = request(world.app);
      const base = `/api/v1/households/${world.householdId}/freezers`;
      const before = await app.get(base).set(world.auth("member"));
      const first = await app.post(base).set(world.auth("member")).send({ name: "Upright" });
      const second = await app.post(base).set(world.auth("member")).send({ name: "Garage" });
      expect(second.body.position).to.equal(first.body.position + 1);
      expect(first.body.position).to.be.greaterThan(
        Math.max(-1, ...before.body.map((f: { position: number }) => f.position)),
      );
      const moved = await app.patch(`${base}/${second.body.id}`).set(world.auth("member")).send({ position: 0 });
      expect(moved.status).to.equal(200);
      expect(moved.body).to.include({ id: second.body.id, name: "Garage", position: 0 });
      const list = await app.get(base).set(world.auth("member"));
      // Position 0 ties with the world's own freezer, which is older, so that one stays first.
      expect(list.body.map((f: { id: string }) => f.id)).to.deep.equal([
        world.freezerId,
        second.body.id,
        first.body.id,
      ]);
    });

    it("400 with details for a bad freezer position, and the freezer is unchanged", async () => {
      const app = request(world.app);
      const path = `/api/v1/households/${world.householdId}/freezers/${world.freezerId}`;
      const before = world.store.freezers.get(world.freezerId);
      const response = await app.patch(path).set(world.auth("member")).send({ name: "Renamed", position: -1 });
      expect(response.status).to.equal(400);
      expect(JSON.stringify(response.body)).to.include("position");
      expect(world.store.freezers.get(world.freezerId)).to.deep.equal(before);
    });

    it("409 when deleting a freezer or compartment that holds items (archived included)", async () => {
      const app = request(world.app);
      world.store.itemsIn = () => true;
      const freezer = await app
        .delete(`/api/v1/households/${world.householdId}/freezers/${world.freezerId}`)
        .set(world.auth("owner"));
      expect(freezer.status).to.equal(409);
      const compartment = await app
        .delete(
          `/api/v1/households/${world.householdId}/freezers/${world.freezerId}/compartments/${world.compartmentId}`,
        )
        .set(world.auth("owner"));
      expect(compartment.status).to.equal(409);
      expect(world.store.freezers.has(world.freezerId)).to.equal(true);
    });
  });

  describe("the application around the routes", () => {
    it("JSON 404 for unknown routes", async () => {
      const response = await request(world.app).get("/api/v1/nothing-here");
      expect(response.status).to.equal(404);
      expect(response.body).to.include({ statusCode: 404, error: "Not Found" });
    });

    it("500 without internals, logged", async () => {
      world.store.itemsIn = () => {
        throw new Error("secret internal detail");
      };
      const response = await request(world.app)
        .delete(`/api/v1/households/${world.householdId}/freezers/${world.freezerId}`)
        .set(world.auth("owner"));
      expect(response.status).to.equal(500);
      expect(response.body).to.deep.equal({
        statusCode: 500,
        error: "Internal Server Error",
        message: "Internal server error",
      });
      expect(JSON.stringify(response.body)).to.not.include("secret");
      expect(world.logger.entries.some((entry) => entry.level === "error")).to.equal(true);
    });

    it("sends security headers (helmet) and no X-Powered-By", async () => {
      const response = await request(world.app).get("/api/v1/health");
      expect(response.headers).to.have.property("x-content-type-options", "nosniff");
      expect(response.headers).to.have.property("content-security-policy");
      expect(response.headers).to.not.have.property("x-powered-by");
    });

    it("allows CORS only for configured origins", async () => {
      const configured = await buildWorld({ env: { CORS_ORIGINS: "https://app.example.com" } });
      const allowed = await request(configured.app).get("/api/v1/health").set("Origin", "https://app.example.com");
      expect(allowed.headers["access-control-allow-origin"]).to.equal("https://app.example.com");
      // A browser client may read the rate-limit headers, so it can back off.
      expect(allowed.headers["access-control-expose-headers"])
        .to.include("Retry-After")
        .and.include("RateLimit-Remaining");
      const other = await request(configured.app).get("/api/v1/health").set("Origin", "https://evil.example.com");
      expect(other.headers).to.not.have.property("access-control-allow-origin");
    });

    it("health: 200 up, 503 down", async () => {
      expect((await request(world.app).get("/api/v1/health")).body).to.deep.equal({
        status: "ok",
        checks: { database: "up" },
      });
      const down = await buildMemoryInventoryApi({
        config: loadConfig({ JWT_SECRET: "x".repeat(40) }),
        logger: new MemoryLogger(),
        checkDatabase: async () => false,
      });
      const response = await request(down.app).get("/api/v1/health");
      expect(response.status).to.equal(503);
      expect(response.body).to.deep.equal({ status: "error", checks: { database: "down" } });
    });

    it("serves an OpenAPI 3.1 document covering every route, and Swagger UI from local files", async () => {
      const doc = await request(world.app).get("/api/v1/openapi.json");
      expect(doc.status).to.equal(200);
      expect(doc.body.openapi).to.match(/^3\.1\./);
      const packageJson = JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8"));
      expect(doc.body.info.version).to.equal(packageJson.version);
      const paths = doc.body.paths as Record<string, Record<string, unknown>>;
      expect(paths["/households/{hid}/freezers/{fid}/compartments/{cid}"]).to.have.keys("get", "patch", "delete");
      expect(paths["/auth/register"]?.post).to.have.nested.property("requestBody.content");
      expect(doc.body.components.schemas).to.include.keys("Household", "HouseholdDetail", "Error", "Freezer", "Invite");
      // Routes with a body document 413 and 415; every route documents 429 with Retry-After.
      expect(paths["/households"]?.post).to.have.nested.property("responses.413");
      expect(paths["/households"]?.post).to.have.nested.property("responses.415");
      expect(paths["/households"]?.get).to.not.have.nested.property("responses.413");
      expect(paths["/users/me"]?.get).to.have.nested.property("responses.429.headers.Retry-After");
      expect((await request(world.app).get("/api/docs")).status).to.equal(200);
      const ui = await request(world.app).get("/api/docs/");
      expect(ui.status).to.equal(200);
      expect(ui.text).to.include("swagger-ui");
      expect(ui.text).to.not.match(/https?:\/\/(cdn|unpkg)/);
      const init = await request(world.app).get("/api/docs/swagger-initializer.js");
      expect(init.text).to.include("/api/v1/openapi.json");
      expect((await request(world.app).get("/api/docs/swagger-ui-bundle.js")).status).to.equal(200);
    });
  });
});
