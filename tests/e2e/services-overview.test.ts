/**
 * The web UI's Services page in Chromium: an engine with the ntfy service (its
 * fake server answered), a Shelly relay that could not be reached, and a custom service.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { NanoleafLightPanels } from "../../src/adapters/services/nanoleaf/nanoleaf-light-panels.js";
import { NtfyNotificationService } from "../../src/adapters/services/ntfy/ntfy-notification-service.js";
import { ShellyRelayService } from "../../src/adapters/services/shelly/shelly-relay-service.js";
import { createEngine, type Engine } from "../../src/composition/create-engine.js";
import { launchChromium } from "../support/browser.js";
import { FakeMqttClient, waitFor } from "../support/engine-fakes.js";
import { FakeNanoleaf } from "../support/fake-nanoleaf.js";
import { FakeNtfy } from "../support/fake-ntfy.js";
import { freePort } from "../support/network.js";
import { expectAccessible } from "./support/accessibility.js";
import { builtWebApp } from "./support/web-build.js";

describe("web UI overview: services", function () {
  this.timeout(90_000);
  let browser: Browser | undefined;
  let ntfy: FakeNtfy;
  let panel: FakeNanoleaf;
  let engine: Engine;
  let dir: string;

  before(async function () {
    browser = (await launchChromium("web UI services")) ?? undefined;
    if (!browser) this.skip();
    ntfy = await FakeNtfy.start({ token: "tk_overview" });
    panel = await FakeNanoleaf.start();
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "services-ui-"));
    const deadPort = await freePort();
    const logger = new MemoryLogger();
    engine = createEngine({
      automationsDir: dir,
      logger,
      mqttClient: new FakeMqttClient(),
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      servicesFromEnvironment: false,
      config: {
        HTTP_TOKEN: undefined,
        DEVICE_REGISTRY_ENABLED: false,
        WEB_UI_ENABLED: true,
        WEB_APP_DIR: builtWebApp(),
      },
      services: {
        notifications: (http, serviceLogger) =>
          new NtfyNotificationService(http, serviceLogger, {
            url: ntfy.url,
            defaultTopic: "hearth",
            token: "tk_overview",
          }),
        relay: ({ http, mqtt, logger: relayLogger }) =>
          new ShellyRelayService(http, mqtt, relayLogger, {
            devices: { garage: { transport: "http", address: `http://127.0.0.1:${deadPort}` } },
          }),
        custom: { hello: "world" },
        lightPanels: (http, panelLogger) =>
          new NanoleafLightPanels(http, panelLogger, { panels: { living: panel.url } }),
      },
    });
    await engine.start();
    await engine.notifications?.send({ message: "hello" });
    await engine.services
      .getOrThrow<ShellyRelayService>("relay")
      .switchOn("garage")
      .catch(() => undefined);
  });

  after(async () => {
    await browser?.close();
    await engine?.stop();
    await ntfy?.close();
    await panel?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists each service with its provider, reachability and last error, no secret, and pairs a Nanoleaf panel", async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${engine.httpPort}/status#services`);
      const ntfyRow = page.locator('#services-table tr[data-service="notifications"]');
      await ntfyRow.locator(".badge", { hasText: "reachable" }).waitFor();
      expect(await ntfyRow.textContent()).to.include("ntfy");
      const relayRow = page.locator('#services-table tr[data-service="relay"]');
      await relayRow.locator(".badge", { hasText: "unreachable" }).waitFor();
      expect(await relayRow.locator(".service-error").textContent()).to.match(/garage: .*unreachable/);
      const customRow = page.locator('#services-table tr[data-service="custom"]');
      expect(await customRow.locator(".badge").textContent()).to.equal("not used yet");
      expect(await page.content()).not.to.contain("tk_overview");
      await expectAccessible(page, "services");

      // An unpaired Nanoleaf panel gets a Pair button; the panel must be in pairing mode.
      const pair = page.getByRole("button", { name: "Pair living" });
      await pair.click();
      // The app's sentence, then the engine's own reason.
      const note = page.locator("#pair-note", { hasText: /"living" is not in pairing mode/ });
      await note.waitFor();
      expect(await note.getAttribute("class")).to.equal("error");
      expect(panel.tokens.size).to.equal(0);
      panel.pairingMode = true;
      await page.getByRole("button", { name: "Pair living" }).click();
      await waitFor(() => panel.tokens.size === 1, 10_000, "the panel to hand out a token");
      await page.locator("#pair-note", { hasText: "living paired." }).waitFor();
      await page.getByRole("button", { name: "Pair living" }).waitFor({ state: "detached" });
      expect(await page.content()).not.to.contain([...panel.tokens][0]);
    } finally {
      await context.close();
    }
  });
});
