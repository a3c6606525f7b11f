/**
 * The HomeKit card of the web UI overview in headless Chromium: after logging in, the
 * setup code and a scannable QR image per bridge.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import { launchChromium } from "../support/browser.js";
import { freePort } from "../support/network.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";
import { expectAccessible } from "./support/accessibility.js";
import { builtWebApp } from "./support/web-build.js";

const TOKEN = "homekit-ui-token";

describe("web UI: HomeKit card", function () {
  this.timeout(90_000);
  let browser: Browser | undefined;
  let broker: TestBroker;
  let engine: Engine;
  let dataDir: string;

  before(async function () {
    browser = (await launchChromium("HomeKit web UI")) ?? undefined;
    if (!browser) this.skip();
    broker = await acquireBroker("homekit web UI");
    dataDir = await mkdtemp(path.join(tmpdir(), "hearth-homekit-ui-"));
    engine = createEngine({
      automationsDir: path.join(dataDir, "automations"),
      logger: new MemoryLogger(),
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      config: {
        MQTT_HOST: broker.host,
        MQTT_PORT: broker.port,
        HTTP_TOKEN: TOKEN,
        WEB_UI_ENABLED: true,
        ZIGBEE2MQTT_PREFIX: uniqueTopicPrefix("hk-ui"),
        DATA_DIR: dataDir,
        STATE_PERSIST: false,
        HOMEKIT_ENABLED: true,
        HOMEKIT_PORT: await freePort(),
        HOMEKIT_SETUP_CODE: "482-91-375",
        HOMEKIT_BIND: ["127.0.0.1"],
        WEB_APP_DIR: builtWebApp(),
      },
    });
    await engine.start();
  });

  after(async () => {
    await browser?.close();
    await engine?.stop();
    await broker?.release();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("shows the setup code and the bridge's QR code to a logged-in user", async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const baseUrl = `http://127.0.0.1:${engine.httpPort}`;
      await page.goto(`${baseUrl}/status`);
      await page.getByLabel("Access token").fill(TOKEN);
      await Promise.all([page.waitForURL(/\/status$/), page.getByRole("button", { name: "Sign in" }).click()]);
      await page.getByRole("navigation").getByRole("link", { name: "HomeKit" }).click();
      await page.waitForURL(/#homekit$/);

      await page.locator("#homekit-setup-code").waitFor();
      expect(await page.locator("#homekit-setup-code").textContent()).to.equal("482-91-375");
      const qr = page.locator("#homekit img");
      await qr.waitFor();
      expect(await qr.getAttribute("alt")).to.contain("HomeKit setup QR code");
      // The image decoded: the CSP lets data: images through and the SVG is well-formed.
      await page.waitForFunction(
        () => ((document.querySelector("#homekit img") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
      );
      expect(await page.locator("#homekit figcaption").textContent()).to.match(/^X-HM:\/\//);
      expect(await page.locator("#homekit").textContent()).to.contain("not paired");
      await expectAccessible(page, "HomeKit page");
      if (process.env.HOMEKIT_SCREENSHOT)
        await page.locator("#homekit").screenshot({ path: process.env.HOMEKIT_SCREENSHOT });
    } finally {
      await context.close();
    }
  });
});
