import { expect } from "chai";
import { FetchHttpClient } from "../../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import {
  NtfyNotificationService,
  ntfyPriority,
} from "../../../src/adapters/services/ntfy/ntfy-notification-service.js";
import { FakeNtfy } from "../../support/fake-ntfy.js";
import { freePort } from "../../support/network.js";

describe("ntfy notifications (against a fake ntfy server on loopback)", () => {
  let ntfy: FakeNtfy;
  let logger: MemoryLogger;
  let sleeps: number[];

  const service = (settings: Partial<ConstructorParameters<typeof NtfyNotificationService>[2]> = {}) =>
    new NtfyNotificationService(new FetchHttpClient(logger, { sleep: async (ms) => void sleeps.push(ms) }), logger, {
      url: ntfy.url,
      defaultTopic: "hearth",
      channels: { alarm: "home-alarm" },
      ...settings,
    });

  beforeEach(async () => {
    ntfy = await FakeNtfy.start({ token: "tk_secret123" });
    logger = new MemoryLogger();
    sleeps = [];
  });
  afterEach(() => ntfy.close());

  it("publishes every field to the default topic with the access token", async () => {
    const result = await service({ token: "tk_secret123" }).send({
      title: "Freezer",
      message: "**Door** open",
      priority: "urgent",
      tags: ["warning", "snowflake"],
      click: "http://hearth.local/status",
      icon: "http://hearth.local/icon.png",
      actions: [
        { action: "view", label: "Open Hearth", url: "http://hearth.local/status" },
        { action: "http", label: "Silence", url: "http://hearth.local/webhook/silence", method: "POST", body: "{}" },
      ],
      markdown: true,
    });
    expect(result).to.deep.equal({ ok: true, channel: "default", id: "msg1" });
    expect(ntfy.published).to.have.length(1);
    expect(ntfy.published[0]).to.deep.include({
      topic: "hearth",
      title: "Freezer",
      message: "**Door** open",
      priority: 5,
      tags: ["warning", "snowflake"],
      click: "http://hearth.local/status",
      icon: "http://hearth.local/icon.png",
      markdown: true,
      authorization: "Bearer tk_secret123",
    });
    expect(ntfy.published[0]?.actions).to.have.length(2);
  });

  it("maps a named channel to its topic and leaves optional fields out", async () => {
    const result = await service({ token: "tk_secret123" }).send({ channel: "alarm", message: "Smoke" });
    expect(result.ok).to.equal(true);
    expect(ntfy.published[0]).to.deep.equal({
      topic: "home-alarm",
      message: "Smoke",
      authorization: "Bearer tk_secret123",
    });
  });

  it("sends an idempotency key as ntfy's sequence ID, the same on a repeat, and refuses one ntfy would not take", async () => {
    const notifications = service({ token: "tk_secret123" });
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(
        (await notifications.send({ message: "Fish", idempotencyKey: "hearth-reminder-2026-06-01-h1" })).ok,
      ).to.equal(true);
    }
    expect(ntfy.published.map((message) => message.sequence_id)).to.deep.equal([
      "hearth-reminder-2026-06-01-h1",
      "hearth-reminder-2026-06-01-h1",
    ]);
    expect(await notifications.send({ message: "x", idempotencyKey: "has a space" })).to.deep.include({
      ok: false,
      code: "SERVICE_INVALID_ARGUMENT",
    });
    expect(ntfy.published).to.have.length(2);
  });

  it("sends username and password as basic auth", async () => {
    await ntfy.close();
    ntfy = await FakeNtfy.start({ basic: { username: "phil", password: "pw" } });
    const result = await service({ username: "phil", password: "pw" }).send({ message: "hi" });
    expect(result.ok).to.equal(true);
    expect(ntfy.published[0]?.authorization).to.equal(`Basic ${Buffer.from("phil:pw").toString("base64")}`);
  });

  it("returns a failure for an unknown channel, a missing message or a bad priority, and sends nothing", async () => {
    const notifications = service({ token: "tk_secret123" });
    const unknown = await notifications.send({ channel: "garage", message: "x" });
    expect(unknown).to.deep.include({ ok: false, code: "SERVICE_INVALID_ARGUMENT" });
    expect(unknown.ok === false && unknown.error).to.match(/no ntfy channel "garage".*default, alarm/);
    expect(await notifications.send({ message: "" })).to.deep.include({ ok: false, code: "SERVICE_INVALID_ARGUMENT" });
    expect(await notifications.send({ message: "x", priority: 9 })).to.deep.include({
      ok: false,
      code: "SERVICE_INVALID_ARGUMENT",
    });
    expect(await notifications.send({ message: "x", priority: "loud" })).to.deep.include({
      ok: false,
      code: "SERVICE_INVALID_ARGUMENT",
    });
    expect(ntfy.server.requests).to.have.length(0);
    expect(notifications.serviceHealth().reachable).to.equal(null);
  });

  it("reports a refused token as an auth failure, never logging the token", async () => {
    const notifications = service({ token: "tk_wrong" });
    const result = await notifications.send({ message: "x" });
    expect(result).to.deep.include({ ok: false, code: "SERVICE_AUTH_FAILED" });
    expect(result.ok === false && result.error).to.match(/401 \(unauthorized\)/);
    const health = notifications.serviceHealth();
    expect(health.reachable).to.equal(true);
    expect(health.lastError).to.match(/401/);
    expect(health.config.token).to.equal("***");
    expect(JSON.stringify(logger.entries)).not.to.contain("tk_wrong");
    expect(JSON.stringify(health)).not.to.contain("tk_wrong");
  });

  it("retries a 5xx with the HTTP client's backoff and then delivers", async () => {
    ntfy.failNext = 2;
    const result = await service({ token: "tk_secret123" }).send({ message: "x" });
    expect(result.ok).to.equal(true);
    expect(ntfy.server.requests).to.have.length(3);
    expect(sleeps).to.deep.equal([500, 1000]);
  });

  it("logs and returns an unreachable server after the retries, without rejecting", async () => {
    const port = await freePort();
    const notifications = service({ url: `http://127.0.0.1:${port}`, token: "tk_secret123" });
    const result = await notifications.send({ message: "x", title: "t" });
    expect(result).to.deep.include({ ok: false, code: "SERVICE_UNREACHABLE" });
    expect(sleeps).to.have.length(2);
    expect(notifications.serviceHealth()).to.deep.include({ reachable: false });
    expect(logger.at("error").map((entry) => entry.msg)).to.include("Notification not sent");
    expect(JSON.stringify(logger.entries)).not.to.contain("tk_secret123");
  });

  it("maps priority names and numbers", () => {
    expect([1, 5, "min", "low", "default", "high", "urgent", "MAX", "3"].map(ntfyPriority)).to.deep.equal([
      1, 5, 1, 2, 3, 4, 5, 5, 3,
    ]);
    expect(ntfyPriority(0)).to.be.a("string");
    expect(ntfyPriority(2.5)).to.be.a("string");
  });
});
