import { expect } from "chai";
import request from "supertest";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../../../src/composition/config.js";
import { buildMemoryInventoryApi } from "../../../support/memory-inventory-api.js";

async function appWith(env: Record<string, string>) {
  const { app } = await buildMemoryInventoryApi({
    config: loadConfig({ JWT_SECRET: "security-headers-secret-0123456789abcdef", ...env }),
    logger: new MemoryLogger(),
  });
  return app;
}

describe("inventory HTTP: security headers on a home network", () => {
  for (const path of ["/api/v1/health", "/api/docs/"]) {
    it(`sends no HSTS and no upgrade-insecure-requests over plain HTTP to a LAN name (${path})`, async () => {
      const response = await request(await appWith({}))
        .get(path)
        .set("Host", "hearth.local:3000");
      expect(response.headers["strict-transport-security"]).to.equal(undefined);
      expect(response.headers["content-security-policy"])
        .to.be.a("string")
        .and.not.to.include("upgrade-insecure-requests");
      expect(response.headers["x-content-type-options"]).to.equal("nosniff");
    });
  }

  it("sends both when a trusted proxy says the request came over HTTPS", async () => {
    const app = await appWith({ TRUST_PROXY: "loopback" });
    const response = await request(app).get("/api/v1/health").set("X-Forwarded-Proto", "https");
    expect(response.headers["strict-transport-security"]).to.match(/max-age=/);
    expect(response.headers["content-security-policy"]).to.include("upgrade-insecure-requests");
  });

  it("ignores X-Forwarded-Proto from a client when no proxy is trusted", async () => {
    const response = await request(await appWith({}))
      .get("/api/v1/health")
      .set("X-Forwarded-Proto", "https");
    expect(response.headers["strict-transport-security"]).to.equal(undefined);
  });
});
