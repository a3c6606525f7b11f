import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { type RunningHearth, startHearth } from "../../src/composition/hearth.js";
import { launchChromium } from "../support/browser.js";
import { acquireBroker, acquireDatabase, type TestBroker, type TestDatabase } from "../support/test-servers.js";

describe("Engine pages in headless Chromium", function () {
  this.timeout(60_000);
  let browser: Browser | null;
  let hearth: RunningHearth;
  let database: TestDatabase;
  let broker: TestBroker;
  let scratch: string;

  before(async function () {
    browser = await launchChromium("health page");
    if (!browser) this.skip();
    database = await acquireDatabase("e2e health page");
    broker = await acquireBroker("e2e health page");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-e2e-"));
    hearth = await startHearth({
      env: {
        DATA_DIR: path.join(scratch, "data"),
        AUTOMATIONS_DIR: path.join(scratch, "automations"),
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        LOG_LEVEL: "warn",
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
      apiPort: 0,
      httpPort: 0,
      logStream: new Writable({ write: (_c, _e, done) => done() }),
    });
  });

  after(async () => {
    await browser?.close();
    await hearth?.stop();
    await database?.release();
    await broker?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("opens /healthz served by the process and shows status ok", async () => {
    const page = await browser!.newPage();
    const response = await page.goto(`http://127.0.0.1:${hearth.httpPort}/healthz`);
    expect(response?.status()).to.equal(200);
    const text = (await page.locator("body").textContent()) ?? "";
    expect(JSON.parse(text)).to.deep.equal({ status: "ok" });
  });

  it("opens the inventory health endpoint too", async () => {
    const page = await browser!.newPage();
    await page.goto(`http://127.0.0.1:${hearth.apiPort}/api/v1/health`);
    expect(JSON.parse((await page.locator("body").textContent()) ?? "")).to.deep.include({ status: "ok" });
  });
});
