import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import { createLogger } from "../../src/adapters/logging/winston-logger.js";
import { type Engine, createEngine } from "../../src/composition/create-engine.js";
import { engineRoutes } from "../../src/composition/engine-routes.js";
import type { LogEntry } from "../../src/ports/log-buffer.js";
import { acquireBroker, type TestBroker } from "../support/test-servers.js";

/**
 * The shipped automations/away-mode-webhook.ts, loaded from its file (it imports "hearth" by
 * name) by a real engine: a wrong body is the caller's mistake, answered 400 over HTTP.
 */
describe("engine webhooks: an automation refuses a request (integration)", () => {
  let broker: TestBroker;
  let engine: Engine;
  let base: string;
  let logs: () => LogEntry[];
  const auth = { Authorization: "Bearer tok", "content-type": "application/json" };

  before(async () => {
    broker = await acquireBroker("engine-webhook-refusal");
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const { logger, buffer } = createLogger({ level: "debug", json: true, stream: sink });
    logs = () => buffer.query({ automation: "away-mode-webhook", limit: 100 });
    engine = createEngine({
      automationsDir: path.resolve("automations"),
      logger,
      logBuffer: buffer,
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      routes: engineRoutes({ version: "9.9.9" }),
      config: { MQTT_HOST: broker.host, MQTT_PORT: broker.port, HTTP_TOKEN: "tok", STATE_PERSIST: false },
    });
    await engine.start();
    base = `http://127.0.0.1:${engine.httpPort}`;
  });

  after(async () => {
    await engine?.stop();
    await broker?.release();
  });

  const callWebhook = (body: string) =>
    fetch(`${base}/webhook/away-mode`, { method: "POST", headers: { "content-type": "application/json" }, body });

  it("answers 400 with the error body for a wrong body, and records a refusal, not a failure", async () => {
    expect(engine.manager.getAutomation("away-mode-webhook")?.status).to.equal("running");
    const response = await callWebhook(JSON.stringify({ away: "yes" }));
    expect(response.status).to.equal(400);
    expect(await response.json()).to.deep.equal({
      error: "Bad Request",
      message: 'Expected a JSON body like {"away": true}',
      details: [{ path: "away", message: "must be true or false" }],
    });
    expect(engine.state.has("away")).to.equal(false);
    expect(engine.manager.getAutomation("away-mode-webhook")?.stats).to.include({
      runs: 1,
      errors: 0,
      refused: 1,
      lastError: null,
    });
    const refused = logs().find((entry) => entry.msg === "Webhook request refused");
    expect(refused).to.include({ level: 30, status: 400, reason: 'Expected a JSON body like {"away": true}' });
    expect(logs().some((entry) => entry.level >= 50)).to.equal(false);

    const traces = await fetch(`${base}/api/automations/away-mode-webhook/traces`, { headers: auth });
    const [trace] = ((await traces.json()) as { traces: { status: string; refusal?: unknown }[] }).traces;
    expect(trace).to.deep.include({
      status: "refused",
      refusal: {
        status: 400,
        message: 'Expected a JSON body like {"away": true}',
        details: [{ path: "away", message: "must be true or false" }],
      },
    });
  });

  it("answers the debug API's manual webhook trigger as the webhook would", async () => {
    const response = await fetch(`${base}/api/automations/away-mode-webhook/trigger`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ type: "webhook", body: { away: 3 } }),
    });
    expect(response.status).to.equal(400);
    expect(((await response.json()) as { message: string }).message).to.equal(
      'Expected a JSON body like {"away": true}',
    );
  });

  it("still answers 200 to a right body", async () => {
    const response = await callWebhook(JSON.stringify({ away: true }));
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ status: "ok" });
    expect(engine.state.get("away")).to.equal(true);
  });
});
