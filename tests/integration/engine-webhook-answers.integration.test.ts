import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import { createLogger } from "../../src/adapters/logging/winston-logger.js";
import { Automation } from "../../src/application/automation/sdk/automation.js";
import { type Engine, createEngine } from "../../src/composition/create-engine.js";
import { engineRoutes } from "../../src/composition/engine-routes.js";
import type { RunMode } from "../../src/application/automation/sdk/automation.js";
import type { Trigger, TriggerContext } from "../../src/domain/automation/trigger.js";
import { acquireBroker, type TestBroker } from "../support/test-servers.js";

/** Holds every run until the test opens the gate, so parallel calls overlap for certain. */
class GatedWebhook extends Automation {
  readonly name = "gated-webhook";
  override readonly mode: RunMode = "single";
  readonly triggers: Trigger[] = [
    { type: "webhook", path: "gated", methods: ["POST"], secret: { type: "token", token: "s3cret-token-value" } },
  ];
  started!: Promise<void>;
  private markStarted!: () => void;
  private gate!: Promise<void>;
  open!: () => void;

  constructor() {
    super();
    this.reset();
  }

  reset(): void {
    this.started = new Promise((resolve) => {
      this.markStarted = resolve;
    });
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  async execute(context: TriggerContext): Promise<void> {
    this.markStarted();
    // An author who logs the whole request must not put its credentials in the log.
    this.logger.info("Webhook request", { request: context });
    await this.gate;
  }
}

/**
 * What a webhook caller learns (real engine, real HTTP, real parallel requests): a firing
 * the automation's run mode dropped answers 409; and the webhook's secrets stay out of the
 * traces and logs the debug API (and so the web UI) serves.
 */
describe("engine webhooks: dropped firings and secret headers (integration)", () => {
  let broker: TestBroker;
  let engine: Engine;
  let dir: string;
  let base: string;
  let gated: GatedWebhook;
  const auth = { Authorization: "Bearer tok" };

  before(async () => {
    broker = await acquireBroker("engine-webhook-answers");
    dir = await mkdtemp(path.join(tmpdir(), "hearth-webhook-answers-"));
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const { logger, buffer } = createLogger({ level: "debug", json: true, stream: sink });
    engine = createEngine({
      automationsDir: dir,
      logger,
      logBuffer: buffer,
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      routes: engineRoutes({ version: "9.9.9" }),
      config: { MQTT_HOST: broker.host, MQTT_PORT: broker.port, HTTP_TOKEN: "tok", STATE_PERSIST: false },
    });
    await engine.start();
    gated = new GatedWebhook();
    await engine.manager.register(gated);
    base = `http://127.0.0.1:${engine.httpPort}`;
  });

  after(async () => {
    gated?.open();
    await engine?.stop();
    await rm(dir, { recursive: true, force: true });
    await broker?.release();
  });

  const call = (headers: Record<string, string> = {}) =>
    fetch(`${base}/webhook/gated`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-token": "s3cret-token-value", ...headers },
      body: JSON.stringify({ pressed: true }),
    });

  it("answers 409 to the calls a single-mode automation dropped, 200 to the one that ran", async () => {
    gated.reset();
    const first = call();
    await gated.started;
    // The run holds the automation: these two arrive together while it is busy.
    const [second, third] = await Promise.all([call(), call()]);
    expect([second.status, third.status]).to.deep.equal([409, 409]);
    const body = (await second.json()) as { error: string; message: string };
    expect(body.error).to.equal("Conflict");
    expect(body.message).to.include('Automation "gated-webhook" did not run').and.include("mode single");
    gated.open();
    const ran = await first;
    expect(ran.status).to.equal(200);
    expect(await ran.json()).to.deep.equal({ status: "ok" });
    const stats = engine.manager.getAutomation("gated-webhook")?.stats;
    expect(stats).to.include({ runs: 1, dropped: 2 });
  });

  it("keeps the webhook token, a bearer credential and cookies out of traces and logs", async () => {
    gated.reset();
    gated.open();
    const response = await fetch(`${base}/webhook/gated`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer s3cret-token-value",
        cookie: "session=c00kie-value",
        "x-api-key": "api-key-value",
        "x-custom-password": "pass-value",
        "x-trace-id": "visible-trace-id",
      },
      body: "{}",
    });
    expect(response.status).to.equal(200);
    const traces = await fetch(`${base}/api/automations/gated-webhook/traces`, { headers: auth });
    const tracesText = await traces.text();
    const logs = await fetch(`${base}/api/logs?automation=gated-webhook&limit=1000`, { headers: auth });
    const logsText = await logs.text();
    for (const [surface, text] of [
      ["traces", tracesText],
      ["logs", logsText],
    ] as const) {
      for (const secret of ["s3cret-token-value", "c00kie-value", "api-key-value", "pass-value"]) {
        expect(text, `${secret} in the ${surface}`).not.to.include(secret);
      }
      expect(text, `the ${surface} still show harmless headers`).to.include("visible-trace-id");
    }
    const newest = (JSON.parse(tracesText) as { traces: { trigger: { headers: Record<string, string> } }[] }).traces[0];
    expect(newest?.trigger.headers).to.include({
      authorization: "[redacted]",
      cookie: "[redacted]",
      "x-api-key": "[redacted]",
      "x-custom-password": "[redacted]",
      "x-trace-id": "visible-trace-id",
    });
  });
});
