import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import request from "supertest";
import { buildWorld, type InventoryWorld, PASSWORD, snapshot } from "./inventory-http-world.js";

const WEB = { "X-Hearth-Client": "web" };

/** The Set-Cookie header for the refresh cookie, split into its attributes. */
function refreshCookie(response: request.Response): { value: string; attributes: string[] } | null {
  const raw = response.headers["set-cookie"] as unknown as string[] | undefined;
  const header = raw?.find((cookie) => cookie.startsWith("hearth_refresh="));
  if (!header) return null;
  const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
  return { value: pair.slice("hearth_refresh=".length), attributes };
}

async function webLogin(world: InventoryWorld, email = world.users.member.email) {
  const response = await request(world.app).post("/api/v1/auth/web/login").set(WEB).send({ email, password: PASSWORD });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  const cookie = refreshCookie(response);
  if (!cookie) throw new Error("no refresh cookie");
  return { response, cookie: `hearth_refresh=${cookie.value}`, accessToken: response.body.accessToken as string };
}

describe("inventory HTTP: the web app's cookie sessions", () => {
  let world: InventoryWorld;
  beforeEach(async () => {
    world = await buildWorld();
  });

  it("signs in with the refresh token only in an HttpOnly, SameSite=Strict cookie scoped to the session routes", async () => {
    const { response } = await webLogin(world);
    expect(response.body).to.have.all.keys("accessToken", "user");
    expect(JSON.stringify(response.body)).to.not.include("refresh");
    const cookie = refreshCookie(response);
    expect(cookie?.attributes).to.include.members(["Path=/api/v1/auth/web", "HttpOnly", "SameSite=Strict"]);
    expect(cookie?.attributes.some((attribute) => attribute.startsWith("Max-Age=2592000"))).to.equal(true);
    // Plain HTTP (a LAN address): a Secure cookie would never come back.
    expect(cookie?.attributes).to.not.include("Secure");
    const me = await request(world.app)
      .get("/api/v1/users/me")
      .set("Authorization", `Bearer ${response.body.accessToken}`);
    expect(me.body.email).to.equal(world.users.member.email);
  });

  it("marks the cookie Secure when the request came over HTTPS (per a trusted proxy)", async () => {
    world = await buildWorld({ env: { TRUST_PROXY: "loopback" } });
    const response = await request(world.app)
      .post("/api/v1/auth/web/login")
      .set(WEB)
      .set("X-Forwarded-Proto", "https")
      .send({ email: world.users.member.email, password: PASSWORD });
    expect(response.status).to.equal(200);
    expect(refreshCookie(response)?.attributes).to.include("Secure");
  });

  it("documents the cookie and the CSRF header in the OpenAPI document", async () => {
    const document = (await request(world.app).get("/api/v1/openapi.json")).body;
    expect(document.components.securitySchemes.webRefreshCookie).to.include({
      type: "apiKey",
      in: "cookie",
      name: "hearth_refresh",
    });
    expect(document.components.securitySchemes.webRefreshCookie.description).to.include("x-hearth-client: web");
    expect(Object.keys(document.paths)).to.include.members([
      "/auth/web/login",
      "/auth/web/refresh",
      "/auth/web/logout",
    ]);
  });

  it("registers through the cookie route too", async () => {
    const response = await request(world.app)
      .post("/api/v1/auth/web/register")
      .set(WEB)
      .send({ email: "new@example.com", password: "password123", name: "New" });
    expect(response.status).to.equal(201);
    expect(response.body.user).to.include({ email: "new@example.com", name: "New" });
    expect(refreshCookie(response)?.attributes).to.include("HttpOnly");
  });

  it("two refreshes at once with one cookie (two tabs) both get the same successor and stay signed in", async () => {
    const { cookie } = await webLogin(world);
    const [first, second] = await Promise.all([
      request(world.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie),
      request(world.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie),
    ]);
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    const successor = refreshCookie(first)?.value;
    expect(refreshCookie(second)?.value).to.equal(successor);
    const later = await request(world.app)
      .post("/api/v1/auth/web/refresh")
      .set(WEB)
      .set("Cookie", `hearth_refresh=${successor}`);
    expect(later.status, JSON.stringify(later.body)).to.equal(200);
  });

  it("refresh rotates the cookie; replaying the old one after the reuse interval ends the session", async () => {
    world = await buildWorld({ env: { JWT_REFRESH_REUSE_INTERVAL: "0" } });
    const { cookie } = await webLogin(world);
    const refreshed = await request(world.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie);
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    expect(refreshed.body.user.email).to.equal(world.users.member.email);
    const next = refreshCookie(refreshed);
    expect(next?.value).to.be.a("string").and.not.equal(cookie.slice("hearth_refresh=".length));
    const replay = await request(world.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie);
    expect(replay.status).to.equal(401);
    const afterReplay = await request(world.app)
      .post("/api/v1/auth/web/refresh")
      .set(WEB)
      .set("Cookie", `hearth_refresh=${next?.value}`);
    expect(afterReplay.status).to.equal(401);
  });

  it("refuses the cookie routes without the web app's header, or from another site's page, changing nothing", async () => {
    const { cookie } = await webLogin(world);
    const before = snapshot(world.store);
    const bare = await request(world.app).post("/api/v1/auth/web/refresh").set("Cookie", cookie);
    expect(bare.status).to.equal(403);
    expect(bare.body).to.include({ statusCode: 403, error: "Forbidden" });
    expect(bare.body.message).to.include("x-hearth-client");
    const foreign = await request(world.app)
      .post("/api/v1/auth/web/refresh")
      .set(WEB)
      .set("Origin", "https://evil.example")
      .set("Cookie", cookie);
    expect(foreign.status).to.equal(403);
    const login = await request(world.app)
      .post("/api/v1/auth/web/login")
      .set("Origin", "https://evil.example")
      .set(WEB)
      .send({ email: world.users.member.email, password: PASSWORD });
    expect(login.status).to.equal(403);
    expect(refreshCookie(login)).to.equal(null);
    expect(snapshot(world.store)).to.equal(before);
    // The API's own origin (as the browser saw it: the Host header) is fine.
    const same = await request(world.app)
      .post("/api/v1/auth/web/refresh")
      .set(WEB)
      .set("Host", "hearth.local:3000")
      .set("Origin", "http://hearth.local:3000")
      .set("Cookie", cookie);
    expect(same.status, JSON.stringify(same.body)).to.equal(200);
  });

  it("refresh without a cookie, or with a garbled one, is 401", async () => {
    expect((await request(world.app).post("/api/v1/auth/web/refresh").set(WEB)).status).to.equal(401);
    const garbled = await request(world.app)
      .post("/api/v1/auth/web/refresh")
      .set(WEB)
      .set("Cookie", "hearth_refresh=%E0%A4%A");
    expect(garbled.status).to.equal(401);
  });

  it("logout revokes the session and clears the cookie", async () => {
    const { cookie } = await webLogin(world);
    const logout = await request(world.app).post("/api/v1/auth/web/logout").set(WEB).set("Cookie", cookie);
    expect(logout.status).to.equal(200);
    const cleared = refreshCookie(logout);
    expect(cleared?.value).to.equal("");
    expect(cleared?.attributes).to.include("Path=/api/v1/auth/web");
    expect((await request(world.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie)).status).to.equal(
      401,
    );
  });

  it("sign out everywhere revokes every session, the phone apps' bearer refresh tokens too", async () => {
    const { cookie, accessToken } = await webLogin(world);
    const all = await request(world.app).post("/api/v1/auth/logout-all").set("Authorization", `Bearer ${accessToken}`);
    expect(all.status).to.equal(200);
    expect((await request(world.app).post("/api/v1/auth/web/refresh").set(WEB).set("Cookie", cookie)).status).to.equal(
      401,
    );
    const phone = await request(world.app)
      .post("/api/v1/auth/refresh")
      .send({ refreshToken: world.users.member.refreshToken });
    expect(phone.status).to.equal(401);
    // Other users keep their sessions.
    const owner = await request(world.app)
      .post("/api/v1/auth/refresh")
      .send({ refreshToken: world.users.owner.refreshToken });
    expect(owner.status).to.equal(200);
  });

  it("changes the password only with the current one", async () => {
    const wrong = await request(world.app)
      .post("/api/v1/users/me/password")
      .set(world.auth("member"))
      .send({ currentPassword: "not it at all", newPassword: "a new passphrase" });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.details).to.deep.equal([{ path: "currentPassword", message: "is not correct" }]);
    const changed = await request(world.app)
      .post("/api/v1/users/me/password")
      .set(world.auth("member"))
      .send({ currentPassword: PASSWORD, newPassword: "a new passphrase" });
    expect(changed.status).to.equal(200);
    const oldLogin = await request(world.app)
      .post("/api/v1/auth/login")
      .send({ email: world.users.member.email, password: PASSWORD });
    expect(oldLogin.status).to.equal(401);
    const newLogin = await request(world.app)
      .post("/api/v1/auth/login")
      .send({ email: world.users.member.email, password: "a new passphrase" });
    expect(newLogin.status).to.equal(200);
  });

  it("changes the e-mail (normalised), refusing one another account has", async () => {
    const before = snapshot(world.store);
    const taken = await request(world.app)
      .patch("/api/v1/users/me")
      .set(world.auth("member"))
      .send({ email: world.users.owner.email.toUpperCase() });
    expect(taken.status).to.equal(409);
    expect(snapshot(world.store)).to.equal(before);
    const changed = await request(world.app)
      .patch("/api/v1/users/me")
      .set(world.auth("member"))
      .send({ email: "New@Example.com" });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.email).to.equal("new@example.com");
    const login = await request(world.app)
      .post("/api/v1/auth/login")
      .send({ email: "new@example.com", password: PASSWORD });
    expect(login.status).to.equal(200);
  });
});

describe("inventory HTTP: serving the web app", () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "hearth-web-dist-"));
    await mkdir(path.join(directory, "assets"));
    await writeFile(path.join(directory, "index.html"), "<!DOCTYPE html><title>app</title>");
    await writeFile(path.join(directory, "assets", "app-ABC123.js"), "console.log(1)");
    await writeFile(path.join(directory, "sw.js"), "self.addEventListener('fetch', () => {})");
    await mkdir(path.join(directory, "api", "v1"), { recursive: true });
    await writeFile(path.join(directory, "api", "v1", "stray.json"), "{}");
  });
  after(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("serves index.html for the app's paths (no-cache), hashed assets immutable, the worker revalidated", async () => {
    const world = await buildWorld({ env: { WEB_APP_DIR: directory } });
    for (const page of ["/", "/items/abc", "/invite/some-code"]) {
      const response = await request(world.app).get(page);
      expect(response.status, page).to.equal(200);
      expect(response.headers["content-type"]).to.match(/text\/html/);
      expect(response.headers["cache-control"]).to.equal("no-cache");
      expect(response.text).to.include("<title>app</title>");
      expect(response.headers["content-security-policy"]).to.include("script-src 'self'");
    }
    const asset = await request(world.app).get("/assets/app-ABC123.js");
    expect(asset.headers["cache-control"]).to.equal("public, max-age=31536000, immutable");
    const worker = await request(world.app).get("/sw.js");
    expect(worker.headers["cache-control"]).to.equal("no-cache");
    expect(worker.headers["service-worker-allowed"]).to.equal("/");
  });

  it("answers 404 for missing files and unknown API routes, not the app", async () => {
    const world = await buildWorld({ env: { WEB_APP_DIR: directory } });
    expect((await request(world.app).get("/assets/app-OLD.js")).status).to.equal(404);
    expect((await request(world.app).get("/favicon.ico")).status).to.equal(404);
    const api = await request(world.app).get("/api/v1/nothing-here");
    expect(api.status).to.equal(404);
    expect(api.headers["content-type"]).to.match(/application\/json/);
  });

  it("never looks for API paths among the app's files", async () => {
    const world = await buildWorld({ env: { WEB_APP_DIR: directory } });
    const stray = await request(world.app).get("/api/v1/stray.json");
    expect(stray.status).to.equal(404);
    expect(stray.headers["content-type"], JSON.stringify(stray.body)).to.match(/application\/json/);
  });

  it("says how to build the app when it is not built", async () => {
    const world = await buildWorld({ env: { WEB_APP_DIR: path.join(directory, "missing") } });
    const response = await request(world.app).get("/");
    expect(response.status).to.equal(503);
    expect(response.text).to.include("npm run build");
    expect((await request(world.app).get("/api/v1/health")).status).to.equal(200);
  });
});
