import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { expect } from "chai";
import express from "express";
import request from "supertest";
import { SESSION_COOKIE, SessionStore } from "../../../src/adapters/http/engine/session-store.js";
import { createWebUiRouter, type WebUiRouterDeps } from "../../../src/adapters/http/engine/web-ui/web-ui-router.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";

const TOKEN = "correct horse battery staple";

/** A stand-in for the web build's output: the console entry's two files and their compressed copies. */
const webAppDir = mkdtempSync(path.join(tmpdir(), "hearth-web-ui-"));
const CONSOLE_SCRIPT = `console.log(${JSON.stringify("the console ".repeat(200))});\n`;
mkdirSync(path.join(webAppDir, "status"));
for (const [name, content] of [
  ["status.js", CONSOLE_SCRIPT],
  ["status.css", "body { margin: 0; }\n".repeat(50)],
] as const) {
  const file = path.join(webAppDir, "status", name);
  writeFileSync(file, content);
  writeFileSync(`${file}.gz`, gzipSync(content));
  writeFileSync(`${file}.br`, brotliCompressSync(content));
}
after(() => rmSync(webAppDir, { recursive: true, force: true }));

function build(overrides: Partial<WebUiRouterDeps> = {}) {
  const sessions = new SessionStore();
  const app = express();
  app.use(
    "/status",
    createWebUiRouter({ token: TOKEN, sessions, logger: new MemoryLogger(), webAppDir, ...overrides }),
  );
  return { app, sessions };
}

function cookieOf(response: request.Response): string {
  const header = response.headers["set-cookie"] as unknown as string[] | undefined;
  expect(header, "Set-Cookie header").to.be.an("array").with.length(1);
  return header![0]!;
}

function sessionIdOf(cookie: string): string {
  return cookie.split(";")[0]!.slice(`${SESSION_COOKIE}=`.length);
}

describe("web UI router", () => {
  describe("with HTTP_TOKEN set", () => {
    it("redirects /status to the login page without a session", async () => {
      const { app } = build();
      const response = await request(app).get("/status");
      expect(response.status).to.be.oneOf([302, 303]);
      expect(response.headers.location).to.equal("/status/login");
    });

    it("shows a login form posting the token field", async () => {
      const { app } = build();
      const response = await request(app).get("/status/login");
      expect(response.status).to.equal(200);
      expect(response.type).to.equal("text/html");
      expect(response.text).to.include('action="/status/login"');
      expect(response.text).to.include('name="token"');
    });

    it("answers a wrong token with the form, an error and 401, setting no cookie", async () => {
      const { app, sessions } = build();
      const response = await request(app).post("/status/login").type("form").send({ token: "nope" });
      expect(response.status).to.equal(401);
      expect(response.text).to.include("not correct");
      expect(response.text).to.include('name="token"');
      expect(response.headers["set-cookie"]).to.equal(undefined);
      expect(sessions.size).to.equal(0);
    });

    it("treats a missing token field as wrong", async () => {
      const { app } = build();
      const response = await request(app).post("/status/login").type("form").send({});
      expect(response.status).to.equal(401);
    });

    it("sets a random HttpOnly SameSite=Strict session cookie for 30 days and redirects to /status", async () => {
      const { app, sessions } = build();
      const response = await request(app).post("/status/login").type("form").send({ token: TOKEN });
      expect(response.status).to.equal(303);
      expect(response.headers.location).to.equal("/status");
      const cookie = cookieOf(response);
      const id = sessionIdOf(cookie);
      expect(id).to.match(/^[0-9a-f]{64}$/);
      expect(cookie).to.not.include(encodeURIComponent(TOKEN));
      expect(cookie).to.include("HttpOnly");
      expect(cookie).to.include("SameSite=Strict");
      expect(cookie).to.include("Path=/");
      expect(cookie).to.include(`Max-Age=${30 * 24 * 3600}`);
      expect(cookie).to.not.include("Secure");
      expect(sessions.isValid(id)).to.equal(true);

      const page = await request(app).get("/status").set("Cookie", `${SESSION_COOKIE}=${id}`);
      expect(page.status).to.equal(200);
      expect(page.text).to.include('<div id="app"');
      expect(page.text).to.match(/<script type="module" src="\/status\/assets\/status\.js\?v=[0-9a-f]{12}">/);
      expect(page.text).to.include('data-logout-action="/status/logout"');
      expect(page.text).to.include('data-login-url="/status/login"');
      expect(page.headers["content-security-policy"]).to.include("default-src 'self'");
    });

    it("does not accept an unknown session id", async () => {
      const { app } = build();
      const page = await request(app)
        .get("/status")
        .set("Cookie", `${SESSION_COOKIE}=${"a".repeat(64)}`);
      expect(page.status).to.equal(303);
    });

    it("marks the cookie Secure behind a trusted proxy that saw HTTPS", async () => {
      const { app } = build({ trustProxy: true });
      const response = await request(app)
        .post("/status/login")
        .set("X-Forwarded-Proto", "https")
        .type("form")
        .send({ token: TOKEN });
      expect(cookieOf(response)).to.include("Secure");
    });

    it("ignores X-Forwarded-Proto when the proxy is not trusted", async () => {
      const { app } = build();
      const response = await request(app)
        .post("/status/login")
        .set("X-Forwarded-Proto", "https")
        .type("form")
        .send({ token: TOKEN });
      expect(cookieOf(response)).to.not.include("Secure");
    });

    it("inherits trust proxy from the app it is mounted on", async () => {
      const sessions = new SessionStore();
      const app = express();
      app.set("trust proxy", true);
      app.use("/status", createWebUiRouter({ token: TOKEN, sessions, logger: new MemoryLogger() }));
      const response = await request(app)
        .post("/status/login")
        .set("X-Forwarded-Proto", "https")
        .type("form")
        .send({ token: TOKEN });
      expect(cookieOf(response)).to.include("Secure");
    });

    for (const method of ["post", "get"] as const) {
      it(`ends the session on ${method.toUpperCase()} /status/logout`, async () => {
        const { app, sessions } = build();
        const login = await request(app).post("/status/login").type("form").send({ token: TOKEN });
        const id = sessionIdOf(cookieOf(login));
        const response = await request(app)[method]("/status/logout").set("Cookie", `${SESSION_COOKIE}=${id}`);
        expect(response.status).to.equal(303);
        expect(response.headers.location).to.equal("/status/login");
        expect(cookieOf(response)).to.include("Max-Age=0");
        expect(sessions.isValid(id)).to.equal(false);
        const page = await request(app).get("/status").set("Cookie", `${SESSION_COOKIE}=${id}`);
        expect(page.status).to.equal(303);
      });
    }

    it("limits logins to 5 tries per minute per address", async () => {
      const { app } = build();
      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await request(app).post("/status/login").type("form").send({ token: "wrong" });
        expect(response.status, `attempt ${attempt}`).to.equal(401);
      }
      const blocked = await request(app).post("/status/login").type("form").send({ token: TOKEN });
      expect(blocked.status).to.equal(429);
      expect(blocked.headers["retry-after"]).to.match(/^\d+$/);
      expect(blocked.text).to.include("Too many");
      expect(blocked.headers["set-cookie"]).to.equal(undefined);
    });

    it("sends a logged-in visitor from the login page to /status", async () => {
      const { app } = build();
      const login = await request(app).post("/status/login").type("form").send({ token: TOKEN });
      const id = sessionIdOf(cookieOf(login));
      const response = await request(app).get("/status/login").set("Cookie", `${SESSION_COOKIE}=${id}`);
      expect(response.status).to.equal(303);
      expect(response.headers.location).to.equal("/status");
    });
  });

  describe("without HTTP_TOKEN", () => {
    it("serves the page without asking for a login", async () => {
      const { app } = build({ token: undefined });
      const response = await request(app).get("/status");
      expect(response.status).to.equal(200);
      expect(response.text).to.include('data-api-base="/api"');
      expect(response.text).to.not.include("Sign out");
    });

    it("sends /status/login to /status", async () => {
      const { app } = build({ token: "" });
      const response = await request(app).get("/status/login");
      expect(response.status).to.equal(303);
      expect(response.headers.location).to.equal("/status");
    });
  });

  describe("assets", () => {
    it("serves the script, stylesheet and icon, all small enough for the 250 kB first load", async () => {
      const { app } = build({ token: undefined });
      const page = await request(app).get("/status");
      const urls = [...page.text.matchAll(/(?:href|src)="(\/status\/assets\/[^"]+)"/g)].map((match) => match[1]);
      expect(urls).to.have.length.greaterThanOrEqual(3);
      let total = Buffer.byteLength(page.text);
      for (const url of new Set(urls)) {
        const asset = await request(app).get(url!.replaceAll("&amp;", "&"));
        expect(asset.status, url).to.equal(200);
        expect(asset.headers["cache-control"]).to.include("immutable");
        total += Number(asset.headers["content-length"]);
      }
      expect(total).to.be.below(250 * 1024);
    });

    it("serves the console's precompressed copy the browser accepts", async () => {
      const { app } = build({ token: undefined });
      const page = await request(app).get("/status");
      const url = /src="(\/status\/assets\/status\.js\?v=[^"]+)"/.exec(page.text)![1]!;
      const brotli = await request(app).get(url).set("Accept-Encoding", "br, gzip").buffer(true);
      expect(brotli.headers["content-encoding"]).to.equal("br");
      expect(brotli.headers.vary).to.include("Accept-Encoding");
      expect(brotli.text).to.equal(CONSOLE_SCRIPT);
      const plain = await request(app).get(url).set("Accept-Encoding", "identity");
      expect(plain.headers["content-encoding"]).to.equal(undefined);
      expect(plain.text).to.equal(CONSOLE_SCRIPT);
    });

    it("says how to build the console when the web app is not built, and still signs in", async () => {
      const { app } = build({ token: undefined, webAppDir: path.join(webAppDir, "missing") });
      const page = await request(app).get("/status");
      expect(page.status).to.equal(503);
      expect(page.text).to.include("npm run build");
      const login = await request(build({ webAppDir: path.join(webAppDir, "missing") }).app).get("/status/login");
      expect(login.status).to.equal(200);
    });

    it("404s unknown assets", async () => {
      const { app } = build();
      const response = await request(app).get("/status/assets/secret.txt");
      expect(response.status).to.equal(404);
    });
  });
});
