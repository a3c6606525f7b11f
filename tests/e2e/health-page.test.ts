import { expect } from "chai";
import type { Browser } from "playwright-core";
import type { RunningHearth } from "../../src/composition/hearth.js";
import { launchChromium } from "../support/browser.js";
import { startTestHearth, type TestHearth } from "../support/test-hearth.js";

describe("Engine pages in headless Chromium", function () {
  this.timeout(60_000);
  let browser: Browser | null;
  let running: TestHearth | undefined;
  let hearth: RunningHearth;

  before(async function () {
    browser = await launchChromium("health page");
    if (!browser) this.skip();
    running = await startTestHearth("e2e health page");
    hearth = running.hearth;
  });

  after(async () => {
    await browser?.close();
    await running?.release();
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
