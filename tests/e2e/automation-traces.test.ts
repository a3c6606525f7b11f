/**
 * Traces and type warnings in the web UI, in headless Chromium, against a real engine (real
 * broker, the real TypeScript check in its worker). UPDATE_SCREENSHOTS=1 rewrites
 * docs/images/traces.png and docs/images/type-warnings.png.
 */
import { mkdirSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import mqtt from "mqtt";
import type { Browser, Page } from "playwright-core";
import { createLogger } from "../../src/adapters/logging/winston-logger.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import { launchChromium } from "../support/browser.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";
import { expectAccessible } from "./support/accessibility.js";
import { builtWebApp } from "./support/web-build.js";

const SAVE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1";

async function screenshot(page: Page, name: string, selector: string): Promise<void> {
  if (!SAVE_SCREENSHOTS) return;
  mkdirSync(path.resolve("docs/images"), { recursive: true });
  await page.locator(selector).screenshot({ path: path.resolve("docs/images", `${name}.png`) });
}

function garageDoor(prefix: string): string {
  return `import { Automation, type Trigger, type TriggerContext } from "hearth";

/** Closes the garage door when it has been left open, and says so. */
export default class GarageDoor extends Automation {
  readonly name = "garage-door";
  readonly triggers: Trigger[] = [
    { type: "mqtt", topic: "${prefix}/garage_door", filter: (payload) => payload.contact === false },
  ];
  override readonly mode = "queued" as const;

  async execute(context: TriggerContext): Promise<void> {
    if (context.type !== "mqtt") return;
    this.logger.info("Garage door open: closing it", { linkquality: context.payload.linkquality });
    this.state.set("garage.closed_by_hearth", true);
    this.mqtt.publishToDevice("garage_opener", { state: "CLOSE" });
    if (context.payload.jammed === true) throw new Error("Opener reports a jam");
  }
}
`;
}

const WITH_TYPE_ERROR = `import { Automation, type Trigger } from "hearth";

export default class NightMode extends Automation {
  readonly name = "night-mode";
  readonly triggers: Trigger[] = [{ type: "cron", expression: "0 23 * * *" }];

  async execute(): Promise<void> {
    const brightness: number = "dim";
    this.mqtt.publishToDevice("hallway_light", { brightness });
  }
}
`;

describe("traces and type warnings in the web UI (Chromium)", function () {
  this.timeout(120_000);
  let browser: Browser | undefined;
  let broker: TestBroker;
  let engine: Engine;
  let dir: string;
  let prefix: string;
  let page: Page;

  before(async function () {
    browser = (await launchChromium("traces web UI")) ?? undefined;
    if (!browser) this.skip();
    broker = await acquireBroker("traces e2e");
    prefix = uniqueTopicPrefix("traces");
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "traces-e2e-"));
    await writeFile(path.join(dir, "garage-door.ts"), garageDoor(prefix));
    await writeFile(path.join(dir, "night-mode.ts"), WITH_TYPE_ERROR);
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const { logger, buffer } = createLogger({ level: "info", json: true, stream: sink });
    engine = createEngine({
      automationsDir: dir,
      logger,
      logBuffer: buffer,
      httpPort: 0,
      httpHost: "127.0.0.1",
      typeCheck: true,
      config: {
        MQTT_HOST: broker.host,
        MQTT_PORT: broker.port,
        ZIGBEE2MQTT_PREFIX: `${prefix}/z2m`,
        DEVICE_REGISTRY_ENABLED: false,
        WEB_UI_ENABLED: true,
        WEB_APP_DIR: builtWebApp(),
      },
    });
    await engine.start();
    for (const deadline = Date.now() + 10_000; !engine.mqtt.isConnected; ) {
      if (Date.now() > deadline) throw new Error("Timed out waiting for the engine's MQTT connection");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const device = await mqtt.connectAsync(broker.url);
    await device.publishAsync(`${prefix}/garage_door`, JSON.stringify({ contact: true, linkquality: 80 }));
    await device.publishAsync(`${prefix}/garage_door`, JSON.stringify({ contact: false, linkquality: 78 }));
    await device.publishAsync(
      `${prefix}/garage_door`,
      JSON.stringify({ contact: false, linkquality: 75, jammed: true }),
    );
    await device.endAsync();
    const deadline = Date.now() + 10_000;
    while (
      (engine.manager.getTraces("garage-door")?.traces.length ?? 0) < 2 ||
      (engine.manager.getTraces("garage-door")?.rejected.length ?? 0) < 1
    ) {
      if (Date.now() > deadline)
        throw new Error(
          `Timed out waiting for the runs: ${JSON.stringify(engine.manager.listAutomations())} ${JSON.stringify(engine.manager.getTraces("garage-door"))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await engine.lastTypeCheck;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await engine?.stop();
    await broker?.release();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("shows an automation's type errors as warnings beside it, while it runs", async () => {
    await page.goto(`http://127.0.0.1:${engine.httpPort}/status#automations`);
    const card = page.locator('article[data-name="night-mode"]');
    await card.locator(".type-warnings .badge", { hasText: "1 type warnings" }).waitFor();
    expect(await card.locator(".badge").first().textContent()).to.equal("running");
    const warning = await card.locator(".type-warnings li").textContent();
    expect(warning).to.match(/night-mode\.ts:8:11/);
    expect(warning).to.include("TS2322: Type 'string' is not assignable to type 'number'.");
    await expectAccessible(page, "automations with a type warning");
    await screenshot(page, "type-warnings", 'article[data-name="night-mode"]');
  });

  it("shows recent runs with their trigger, log, publishes, state changes and errors, and filtered-out events", async () => {
    await page.goto(`http://127.0.0.1:${engine.httpPort}/status#automations`);
    const card = page.locator('article[data-name="garage-door"]');
    await card.locator(".kv dt", { hasText: "Mode" }).waitFor();
    expect(await card.locator(".kv").textContent()).to.include("queued (max 10)");
    await card.getByText("Recent runs").click();
    const runs = card.locator("details.trace");
    await runs.first().waitFor();
    expect(await runs.count()).to.equal(2);
    await card.locator(".rejected", { hasText: "1 filtered out" }).waitFor();
    await expectAccessible(page, "automations with recent runs open");
    expect(await card.locator(".rejected").textContent()).to.include('"contact":true');

    const failed = card.locator('details.trace[data-status="error"]');
    await failed.locator("summary").click();
    const failedText = (await failed.textContent()) ?? "";
    expect(failedText).to.include("Opener reports a jam");
    expect(failedText).to.include("Garage door open: closing it");
    expect(failedText).to.include(`${prefix}/z2m/garage_opener/set {"state":"CLOSE"}`);
    expect(failedText).to.include("garage.closed_by_hearth = true");
    const ok = card.locator('details.trace[data-status="ok"]');
    expect(await ok.locator(".badge").textContent()).to.equal("ok");
    await screenshot(page, "traces", 'article[data-name="garage-door"]');
  });

  it("shows a failed reload on the card while the previous version keeps running", async () => {
    await writeFile(path.join(dir, "night-mode.ts"), "export default class NightMode {");
    const outcome = await engine.manager.loadFile(path.join(dir, "night-mode.ts"));
    expect(outcome.status).to.equal("kept_previous");
    // No reload of the page: the engine logs the failed reload, and the live page follows it.
    const card = page.locator('article[data-name="night-mode"]');
    const reloadError = card.locator(".error-text", { hasText: "reload failed" });
    await reloadError.waitFor();
    expect(await reloadError.textContent()).to.match(
      /The last reload failed; the previous version keeps running: .*failed to load/,
    );
    expect(await card.locator(".badge").first().textContent()).to.equal("running");
  });
});
