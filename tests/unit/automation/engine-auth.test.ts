import { expect } from "chai";
import express from "express";
import request from "supertest";
import {
  createEngineAuth,
  readCookie,
  SESSION_COOKIE,
  type SessionValidator,
  tokensMatch,
} from "../../../src/adapters/http/engine/engine-auth.js";

function appWith(token: string | undefined, sessions: SessionValidator | null) {
  const app = express();
  app.use("/api", createEngineAuth({ token, sessions }));
  app.get("/api/ping", (_req, res) => {
    res.json({ pong: true });
  });
  return app;
}

describe("createEngineAuth", () => {
  const sessions: SessionValidator = { isValid: (id) => id === "good-session" };

  it("lets everything through when no token is set", async () => {
    await request(appWith(undefined, null)).get("/api/ping").expect(200, { pong: true });
    await request(appWith("", null)).get("/api/ping").expect(200);
  });

  it("rejects a request without credentials with 401 JSON and WWW-Authenticate", async () => {
    const response = await request(appWith("s3cret", sessions)).get("/api/ping").expect(401);
    expect(response.body.error).to.equal("Unauthorized");
    expect(response.body.message).to.be.a("string");
    expect(response.headers["www-authenticate"]).to.match(/^Bearer/);
  });

  it("accepts the bearer token (scheme in any case) and rejects a wrong one", async () => {
    const app = appWith("s3cret", sessions);
    await request(app).get("/api/ping").set("Authorization", "Bearer s3cret").expect(200);
    await request(app).get("/api/ping").set("Authorization", "bearer s3cret").expect(200);
    await request(app).get("/api/ping").set("Authorization", "Bearer s3cre").expect(401);
    await request(app).get("/api/ping").set("Authorization", "Bearer s3cret-and-more").expect(401);
    await request(app).get("/api/ping").set("Authorization", "Basic czNjcmV0").expect(401);
  });

  it("accepts a valid session cookie and rejects an unknown one", async () => {
    const app = appWith("s3cret", sessions);
    await request(app).get("/api/ping").set("Cookie", `theme=dark; ${SESSION_COOKIE}=good-session`).expect(200);
    await request(app).get("/api/ping").set("Cookie", `${SESSION_COOKIE}=stolen`).expect(401);
  });

  it("rejects cookies when there is no session store", async () => {
    await request(appWith("s3cret", null)).get("/api/ping").set("Cookie", `${SESSION_COOKIE}=good-session`).expect(401);
  });

  it("compares tokens of any length", () => {
    expect(tokensMatch("a", "a")).to.equal(true);
    expect(tokensMatch("a", "ab")).to.equal(false);
  });

  it("reads cookies, decoding values", () => {
    expect(readCookie("a=1; hearth_session=x%20y", "hearth_session")).to.equal("x y");
    expect(readCookie("a=1", "hearth_session")).to.equal(undefined);
    expect(readCookie(undefined, "a")).to.equal(undefined);
  });
});
