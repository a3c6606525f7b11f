/**
 * The engine's web UI at /status in headless Chromium (playwright-core), against a running
 * engine: the web app's console entry (the House pages against the engine's /api, live from
 * /api/events), behind the /status/login token form. Set UPDATE_SCREENSHOTS=1 to rewrite the
 * screenshots in docs/images/ that docs/web-app.md shows.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { HOUSE_MESSAGES, type HouseKey } from "../../web/src/house/messages.js";
import { launchChromium } from "../support/browser.js";
import { expectAccessible, expectFocus } from "./support/accessibility.js";
import { startEngineForUi } from "./support/engine-for-ui.js";
import type { EngineHarness } from "./support/harness.js";
import { startRealEngine } from "./support/real-engine.js";

const SCREENSHOT_DIR = path.resolve("docs/images");
const SAVE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1";
const TOKEN = "e2e-token-7f3a9c";
/** The running porch-light; a second fixture file reuses its name and shows as a failed card. */
const PORCH_LIGHT = 'article[data-name="porch-light"][data-status="running"]';
/** The console's pages by their hash (the House pages without Admins: the engine has no accounts). */
const PAGES: { hash: string; title: HouseKey }[] = [
  { hash: "overview", title: "house.overview" },
  { hash: "automations", title: "house.automations" },
  { hash: "devices", title: "house.devices" },
  { hash: "state", title: "house.state" },
  { hash: "services", title: "house.services" },
  { hash: "logs", title: "house.logs" },
  { hash: "homekit", title: "house.homekit" },
];

function house(lang: "en" | "de", key: HouseKey, values: Record<string, string | number> = {}): string {
  return HOUSE_MESSAGES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SAVE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** Polls a server-side condition the page should have caused, with a deadline. */
async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signIn(page: Page, harness: EngineHarness): Promise<void> {
  await page.goto(`${harness.baseUrl}/status`);
  await page.getByLabel("Access token").fill(harness.token);
  await Promise.all([page.waitForURL(/\/status$/), page.getByRole("button", { name: "Sign in" }).click()]);
}

/** Opens a console page through its link in the section navigation. */
async function openPage(page: Page, lang: "en" | "de", title: HouseKey): Promise<void> {
  const nav = page.getByRole("navigation", { name: house(lang, "house.sections") });
  await nav.getByRole("link", { name: house(lang, title), exact: true }).click();
  await page.getByRole("heading", { level: 1, name: house(lang, title), exact: true }).waitFor();
}

/** The live indicator says the event stream is open. */
async function live(page: Page, lang: "en" | "de" = "en"): Promise<void> {
  await page.locator("#house-live", { hasText: house(lang, "house.live.on") }).waitFor();
}

describe("web UI in Chromium", function () {
  this.timeout(90_000);
  let browser: Browser | undefined;
  let harness: EngineHarness;

  before(async function () {
    browser = (await launchChromium("web UI")) ?? undefined;
    if (!browser) this.skip();
    harness = await startEngineForUi(TOKEN);
    console.log(`      [web-ui e2e] against: ${harness.source}`);
  });

  after(async () => {
    await browser?.close();
    await harness?.stop();
  });

  describe("login", () => {
    let context: BrowserContext;
    let page: Page;

    beforeEach(async () => {
      context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
    });
    afterEach(() => context.close());

    it("rejects a wrong token, accepts the right one and signs out", async () => {
      await page.goto(`${harness.baseUrl}/status`);
      expect(new URL(page.url()).pathname).to.equal("/status/login");
      await expectAccessible(page, "sign-in page");
      await screenshot(page, "login");

      await page.getByLabel("Access token").fill("not-the-token");
      const [rejected] = await Promise.all([
        page.waitForResponse(
          (response) => response.url().endsWith("/status/login") && response.request().method() === "POST",
        ),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      expect(rejected.status()).to.equal(401);
      await page.getByRole("alert").filter({ hasText: "not correct" }).waitFor();
      await expectAccessible(page, "sign-in page with an error");
      expect((await context.cookies()).some((cookie) => cookie.name === "hearth_session")).to.equal(false);

      await page.getByLabel("Access token").fill(harness.token);
      await Promise.all([page.waitForURL(/\/status$/), page.getByRole("button", { name: "Sign in" }).click()]);
      await page.locator("#stat-engine").waitFor();
      const session = (await context.cookies()).find((cookie) => cookie.name === "hearth_session");
      expect(session?.httpOnly).to.equal(true);
      expect(session?.sameSite).to.equal("Strict");
      expect(session?.value).to.not.include(harness.token);

      await Promise.all([page.waitForURL(/\/status\/login$/), page.getByRole("button", { name: "Sign out" }).click()]);
      await page.goto(`${harness.baseUrl}/status`);
      expect(new URL(page.url()).pathname).to.equal("/status/login");
    });
  });

  describe("pages", () => {
    let context: BrowserContext;
    let page: Page;

    before(async () => {
      context = await browser!.newContext({
        viewport: { width: 1280, height: 860 },
        colorScheme: "light",
        locale: "en-GB",
      });
      page = await context.newPage();
      await signIn(page, harness);
    });
    after(() => context.close());

    it("overview shows engine and MQTT status, uptime, automation counts and recent errors, axe-clean", async () => {
      await page.goto(`${harness.baseUrl}/status#overview`);
      await page.locator("#stat-mqtt .badge", { hasText: "connected" }).waitFor();
      await page.locator("#stat-automations .value", { hasText: /^2$/ }).waitFor();
      expect(await page.locator("#stat-automations .muted").textContent()).to.include("2 failed");
      expect(await page.locator("#stat-uptime .value").textContent()).to.match(/\d+[smhd]/);
      await page.locator('[aria-labelledby="overview-automations"]').getByText("porch-light").first().waitFor();
      await page.locator('[aria-labelledby="overview-errors"] li').first().waitFor();
      await live(page);
      // No account and no family navigation: the console is the House pages alone.
      expect(await page.getByRole("link", { name: house("en", "house.admins") }).count()).to.equal(0);
      expect(await page.getByRole("navigation").count()).to.equal(1);
      await expectAccessible(page, "overview");
      await screenshot(page, "overview");
    });

    it("automations list triggers, status and stats, and a manual trigger runs one", async () => {
      await openPage(page, "en", "house.automations");
      expect(new URL(page.url()).hash).to.equal("#automations");
      const card = page.locator(PORCH_LIGHT);
      await card.waitFor();
      expect(await card.locator(".triggers").textContent()).to.include("device_state porch-motion");
      await page.locator('article[data-name="broken-one"] .badge', { hasText: "failed" }).waitFor();
      // The duplicate-name failure gets its own card and never hides the running automation.
      const duplicate = page.locator('article[data-name="porch-light"][data-status="failed"]');
      await duplicate.locator(".error-text", { hasText: "duplicate name" }).waitFor();
      expect(await duplicate.locator(".triggers").textContent()).to.include("state shadow");
      expect(await card.locator(".badge").first().textContent()).to.equal("running");

      const before = harness.runs("porch-light");
      await card.getByText("Run manually").click();
      await card.getByLabel("Trigger type").selectOption("mqtt");
      const context = card.getByLabel("Context (JSON)");
      // The template follows the chosen type once the form has re-rendered.
      await page.waitForFunction(
        (field) => (JSON.parse((field as HTMLTextAreaElement).value) as { type?: string }).type === "mqtt",
        await context.elementHandle(),
      );
      await context.fill(JSON.stringify({ type: "mqtt", topic: "e2e/manual", payload: { from: "browser" } }));
      await card.getByRole("button", { name: "Run now" }).click();
      await card.locator('[id$="-result"]', { hasText: "Ran at" }).waitFor();
      await eventually(() => harness.runs("porch-light") > before, "porch-light to run");
      await card
        .locator(".kv dd", { hasText: String(before + 1) })
        .first()
        .waitFor();

      await context.fill("{ not json");
      await card.getByText("Not valid JSON").waitFor();
      expect(await card.getByRole("button", { name: "Run now" }).isDisabled()).to.equal(true);
      await card.getByRole("button", { name: "Reset template" }).click();
      await expectAccessible(page, "automations with the manual trigger open");
      // Full page: the failed duplicate's card sits below the open form.
      await screenshot(page, "automations", { fullPage: true });
    });

    it("the manual trigger form's template of every trigger type is accepted and runs the automation", async () => {
      const card = page.locator(PORCH_LIGHT);
      const result = card.locator('[id$="-result"]');
      for (const type of [
        "mqtt",
        "cron",
        "state",
        "webhook",
        "device_state",
        "device_joined",
        "device_left",
        "inventory",
      ]) {
        const before = harness.runs("porch-light");
        await card.getByLabel("Trigger type").selectOption(type);
        await card.getByRole("button", { name: "Run now" }).click();
        await eventually(() => harness.runs("porch-light") > before, `porch-light to run from a ${type} context`);
        await result.filter({ hasText: "Ran at" }).waitFor();
        expect(await result.getAttribute("class"), type).to.equal("muted");
        // Clear the message so the next type's success is a fresh one: an edit shows the JSON check instead.
        await card.getByLabel("Context (JSON)").fill("{");
        await result.filter({ hasText: "Not valid JSON" }).waitFor();
        await card.getByRole("button", { name: "Reset template" }).click();
      }
    });

    it("recent runs open on the card and follow new runs live", async () => {
      const card = page.locator(PORCH_LIGHT);
      await card.getByText("Recent runs").click();
      const traces = card.locator("details.trace");
      await traces.first().waitFor();
      const before = await traces.count();
      await card.getByLabel("Trigger type").selectOption("mqtt");
      await card.getByRole("button", { name: "Run now" }).click();
      // The finished run's event reloads the open list; the page does not ask on a timer.
      await page.waitForFunction(
        ([selector, count]) => document.querySelectorAll(selector as string).length > (count as number),
        [`${PORCH_LIGHT} details.trace`, before] as const,
      );
      await traces.first().locator("summary").click();
      expect(await traces.first().textContent()).to.include('"type": "mqtt"');
    });

    it("devices show the tracked devices with merged state and can be searched", async () => {
      await openPage(page, "en", "house.devices");
      const row = page.locator('tr[data-device="porch-motion"]');
      await row.waitFor();
      expect(await row.locator('[data-field="occupancy"]').textContent()).to.equal("occupancy true");
      await page.getByLabel("Search devices").fill("no-such-device");
      await page.getByText("No device matches the search.").waitFor();
      await page.getByLabel("Search devices").fill("motion");
      await row.waitFor();
      await page.getByLabel("Search devices").fill("");
      await expectAccessible(page, "devices");
      await screenshot(page, "devices");
    });

    it("state edits reach the StateManager and fire state triggers", async () => {
      await openPage(page, "en", "house.state");
      const watcherRuns = harness.runs("away-mode-watch");
      await page.getByLabel("Key", { exact: true }).fill("away-mode");
      await page.getByLabel("Value (JSON)", { exact: true }).fill('{"since": "21:00", "armed": true}');
      await page.getByRole("button", { name: "Set value" }).click();
      await eventually(
        () => JSON.stringify(harness.stateGet("away-mode")) === '{"since":"21:00","armed":true}',
        "state set",
      );
      await eventually(() => harness.runs("away-mode-watch") === watcherRuns + 1, "state trigger to fire on add");

      const row = page.locator('tr[data-key="away-mode"]');
      await row.waitFor();
      await row.getByRole("button", { name: "Edit away-mode" }).click();
      const editor = row.getByLabel("Value of away-mode (JSON)");
      await editor.fill("{ broken");
      await row.getByText("Not valid JSON").waitFor();
      expect(await row.getByRole("button", { name: "Save" }).isDisabled()).to.equal(true);
      await editor.fill("false");
      await row.getByRole("button", { name: "Save" }).click();
      await eventually(() => harness.stateGet("away-mode") === false, "state edit");
      await eventually(() => harness.runs("away-mode-watch") === watcherRuns + 2, "state trigger to fire on edit");
      await row.locator("pre", { hasText: "false" }).waitFor();

      await page.getByLabel("Key", { exact: true }).fill("thermostat-target");
      await page.getByLabel("Value (JSON)", { exact: true }).fill("21.5");
      await page.getByRole("button", { name: "Set value" }).click();
      await page.locator('tr[data-key="thermostat-target"]').waitFor();
      await page.getByLabel("Key", { exact: true }).fill("scratch");
      await page.getByLabel("Value (JSON)", { exact: true }).fill('"delete me"');
      await page.getByRole("button", { name: "Set value" }).click();
      const scratch = page.locator('tr[data-key="scratch"]');
      await scratch.waitFor();
      await scratch.getByRole("button", { name: "Delete", exact: true }).click();
      await scratch.getByRole("button", { name: "Yes, delete" }).click();
      await eventually(() => harness.stateGet("scratch") === undefined, "state delete");
      await scratch.waitFor({ state: "detached" });
      await expectAccessible(page, "state");
      await screenshot(page, "state");
    });

    it("a state change made elsewhere shows up from the server push", async () => {
      await live(page);
      const put = await context.request.put(`${harness.baseUrl}/api/state/pushed-key`, { data: { value: 42 } });
      expect(put.status()).to.equal(200);
      await page.locator('tr[data-key="pushed-key"] pre', { hasText: "42" }).waitFor();
      await context.request.delete(`${harness.baseUrl}/api/state/pushed-key`);
      await page.locator('tr[data-key="pushed-key"]').waitFor({ state: "detached" });
    });

    it("logs filter by level and automation, search text and follow new entries live", async () => {
      await openPage(page, "en", "house.logs");
      await page.locator("#log-list li").first().waitFor();
      const marker = `live-entry-${Date.now()}`;
      harness.log(marker);
      await page.locator("#log-list", { hasText: marker }).waitFor();

      await page.getByLabel("Search", { exact: true }).fill(marker);
      await page.locator("#log-summary", { hasText: /^1 of/ }).waitFor();
      await page.getByLabel("Search", { exact: true }).fill("");

      await page.getByLabel("Automation", { exact: true }).selectOption("porch-light");
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll("#log-list li .fields")).every((node) =>
          node.textContent?.includes("porch-light"),
        ),
      );
      await page.getByLabel("Automation", { exact: true }).selectOption("");
      await page.getByLabel("Level").selectOption("50");
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll("#log-list li[data-level]")).every(
          (node) => Number((node as HTMLElement).dataset.level) >= 50,
        ),
      );
      await page.getByLabel("Level").selectOption("");
      await page.locator("#log-list li[data-level='30']").first().waitFor();
      await expectAccessible(page, "logs");
      await screenshot(page, "logs");
    });

    it("shows a banner while MQTT is down and keeps everything else", async () => {
      await openPage(page, "en", "house.overview");
      await live(page);
      await harness.setMqttConnected(false);
      const banner = page.locator(".banner", { hasText: house("en", "house.mqttDown") });
      await banner.waitFor();
      expect(await banner.getAttribute("role")).to.equal("status");
      await page.locator("#stat-mqtt .badge", { hasText: "disconnected" }).waitFor();
      expect(await page.locator('[aria-labelledby="overview-automations"]').textContent()).to.include("porch-light");
      await expectAccessible(page, "overview with MQTT down");
      await screenshot(page, "mqtt-down");
      await harness.setMqttConnected(true);
      await banner.waitFor({ state: "detached", timeout: 20_000 });
    });

    it("says when this instance is a standby and names the leader", async () => {
      // The engine here runs alone; the status answer is turned into a standby's.
      await page.route(/\/api\/status$/, async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as Record<string, unknown>;
        await route.fulfill({ response, json: { ...body, role: "standby", instance: "beta", leader: "alpha" } });
      });
      await page.reload();
      const banner = page.locator(".banner", {
        hasText: house("en", "house.standby", { instance: "beta", leader: "alpha" }),
      });
      await banner.waitFor();
      await page.unroute(/\/api\/status$/);
      await page.reload();
      await page.locator("#stat-engine").waitFor();
      expect(await banner.count()).to.equal(0);
    });

    it("updates from the server push, not by asking on a timer", async () => {
      const quiet = await browser!.newContext({ locale: "en-GB" });
      try {
        await quiet.addCookies(await context.cookies());
        const probe = await quiet.newPage();
        // The page's clock is the test's: a page that polled would ask again when it moves on.
        await probe.clock.install();
        const asked: string[] = [];
        probe.on("request", (request) => {
          const url = new URL(request.url());
          if (url.pathname.startsWith("/api/") && url.pathname !== "/api/events") asked.push(url.pathname);
        });
        await probe.goto(`${harness.baseUrl}/status#logs`);
        await probe.locator("#log-list li").first().waitFor();
        await live(probe);
        const settled = asked.length;
        await probe.clock.runFor("05:00");
        await probe.evaluate(() => fetch("/api/status").then((response) => response.status));
        // Five minutes without an event: nothing asked but the probe's own request above.
        expect(asked.slice(settled)).to.deep.equal(["/api/status"]);
        const marker = `pushed-entry-${Date.now()}`;
        harness.log(marker);
        // The event arrives on the stream; the page reloads what it shows once its coalescing
        // timer (on the test's clock) runs. Move the clock on until the entry is there.
        const entry = probe.locator("#log-list", { hasText: marker });
        for (let tries = 0; !(await entry.isVisible()); tries++) {
          if (tries > 40) throw new Error("the pushed log entry never showed");
          await probe.clock.runFor(1000);
          await entry.waitFor({ timeout: 500 }).catch(() => undefined);
        }
      } finally {
        await quiet.close();
      }
    });

    it("fits a phone screen and follows the dark preference", async () => {
      const phone = await browser!.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 1,
        colorScheme: "dark",
        isMobile: true,
        hasTouch: true,
      });
      try {
        await phone.addCookies(await context.cookies());
        const mobile = await phone.newPage();
        await mobile.goto(`${harness.baseUrl}/status#automations`);
        await mobile.locator(PORCH_LIGHT).waitFor();
        const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).to.be.at.most(0);
        const background = await mobile.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).to.equal("rgb(18, 20, 23)");
        await expectAccessible(mobile, "automations on a dark phone");
        await screenshot(mobile, "mobile-dark");
      } finally {
        await phone.close();
      }
      // The desktop context asked for the light scheme.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).to.equal("rgb(246, 247, 249)");
    });

    it("every page fits a 360 px phone, its section links in one row that scrolls", async () => {
      const phone = await browser!.newContext({
        viewport: { width: 360, height: 740 },
        isMobile: true,
        hasTouch: true,
        locale: "en-GB",
      });
      try {
        await phone.addCookies(await context.cookies());
        const mobile = await phone.newPage();
        await mobile.goto(`${harness.baseUrl}/status`);
        await mobile.locator("#stat-engine").waitFor();
        for (const { hash, title } of PAGES) {
          const link = mobile
            .getByRole("navigation", { name: house("en", "house.sections") })
            .getByRole("link", { name: house("en", title), exact: true });
          await link.scrollIntoViewIfNeeded();
          const box = await link.boundingBox();
          expect(box, hash).to.not.equal(null);
          expect(box!.x, hash).to.be.at.least(0);
          expect(box!.x + box!.width, `${hash} link in view`).to.be.at.most(360);
          await link.click();
          await mobile.waitForURL(new RegExp(`#${hash}$`));
          await mobile.locator("main > :not(nav):not(.house-head)").first().waitFor();
          const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, hash).to.be.at.most(0);
        }
      } finally {
        await phone.close();
      }
    });

    it("moves between pages from the keyboard, the focus on the new page's heading", async () => {
      await page.goto(`${harness.baseUrl}/status#overview`);
      await page.locator("#stat-engine").waitFor();
      const nav = page.getByRole("navigation", { name: house("en", "house.sections") });
      expect(await nav.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).to.equal("page");
      await nav.getByRole("link", { name: "Automations" }).focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(/#automations$/);
      await page.getByRole("heading", { level: 1, name: "Automations" }).waitFor();
      await expectFocus(page, "tagName", "H1");
      expect(await nav.getByRole("link", { name: "Automations" }).getAttribute("aria-current")).to.equal("page");
      // Back to where it came from, as with any page.
      await page.goBack();
      await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
      // The skip link jumps to the content and keeps the page.
      await page.getByRole("link", { name: "Skip to content" }).focus();
      await page.keyboard.press("Enter");
      expect(new URL(page.url()).hash).to.equal("#main");
      await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    });

    it("shows markup in state keys, values and log messages as text", async () => {
      const key = '<img src=x onerror="window.hearthXss=1">';
      const value = "<script>window.hearthXss=2</script><b>bold</b>";
      const put = await context.request.put(`${harness.baseUrl}/api/state/${encodeURIComponent(key)}`, {
        data: { value },
      });
      expect(put.status()).to.equal(200);
      harness.log('<img src=x onerror="window.hearthXss=3"> logged markup');
      try {
        await page.goto(`${harness.baseUrl}/status#state`);
        const row = page.locator("#state-table tr[data-key]").filter({ hasText: "onerror" });
        await row.waitFor();
        expect(await row.locator("td.key").textContent()).to.equal(key);
        expect(await row.locator("td.value pre").textContent()).to.equal(JSON.stringify(value));
        await openPage(page, "en", "house.logs");
        await page.locator("#log-list", { hasText: "logged markup" }).waitFor();
        expect(
          await page.locator("#log-list li", { hasText: "logged markup" }).locator(".msg").textContent(),
        ).to.include('<img src=x onerror="window.hearthXss=3">');
        expect(await page.evaluate(() => document.querySelectorAll("main img, main script, main b").length)).to.equal(
          0,
        );
        expect(await page.evaluate(() => (window as unknown as { hearthXss?: number }).hearthXss)).to.equal(undefined);
      } finally {
        await context.request.delete(`${harness.baseUrl}/api/state/${encodeURIComponent(key)}`);
      }
    });

    it("the session cookie also opens the debug API and /metrics", async () => {
      const api = await context.request.get(`${harness.baseUrl}/api/status`);
      expect(api.status()).to.equal(200);
      expect((await api.json()).checks).to.have.property("mqtt");
      if (harness.source.startsWith("real engine")) {
        const metrics = await context.request.get(`${harness.baseUrl}/metrics`);
        expect(metrics.status()).to.equal(200);
        expect(await metrics.text()).to.include('hearth_automation_runs_total{automation="porch-light"}');
      }
      const anonymous = await browser!.newContext();
      try {
        expect((await anonymous.request.get(`${harness.baseUrl}/api/status`)).status()).to.equal(401);
      } finally {
        await anonymous.close();
      }
    });

    it("loads everything from Hearth itself, under 250 kB", async () => {
      const fresh = await browser!.newContext();
      try {
        await fresh.addCookies(await context.cookies());
        const probe = await fresh.newPage();
        const origins = new Set<string>();
        const transfers: Promise<number>[] = [];
        probe.on("request", (request) => {
          origins.add(new URL(request.url()).origin);
        });
        probe.on("requestfinished", (request) => {
          transfers.push(request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize));
        });
        await probe.goto(`${harness.baseUrl}/status`);
        await probe.locator("#stat-engine").waitFor();
        await probe.locator('[aria-labelledby="overview-errors"] li').first().waitFor();
        const bytes = (await Promise.all(transfers)).reduce((sum, size) => sum + size, 0);
        expect([...origins]).to.deep.equal([harness.baseUrl]);
        // The console's bundle alone is larger than this, so a count that missed the assets would fail here.
        expect(bytes).to.be.above(20 * 1024);
        expect(bytes).to.be.below(250 * 1024);
      } finally {
        await fresh.close();
      }
    });
  });

  describe("in German", () => {
    let context: BrowserContext;
    let page: Page;

    before(async () => {
      context = await browser!.newContext({ viewport: { width: 1280, height: 860 }, locale: "de-DE" });
      page = await context.newPage();
      await signIn(page, harness);
    });
    after(() => context.close());

    it("every page speaks German and is axe-clean", async () => {
      await page.locator("#stat-engine").waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).to.equal("de");
      await page.getByRole("button", { name: house("de", "house.console.signOut") }).waitFor();
      await live(page, "de");
      for (const { hash, title } of PAGES) {
        await openPage(page, "de", title);
        expect(new URL(page.url()).hash).to.equal(`#${hash}`);
        await page.locator("main .muted, main table, main .card, main p").first().waitFor();
        await expectAccessible(page, `${hash} in German`);
      }
      await openPage(page, "de", "house.automations");
      const card = page.locator(PORCH_LIGHT);
      await card.getByText(house("de", "house.run"), { exact: true }).click();
      await card.getByLabel(house("de", "house.run.context")).waitFor();
      await expectAccessible(page, "automations in German, manual trigger open");
    });
  });

  describe("without HTTP_TOKEN and with the device registry off", () => {
    let open: EngineHarness;
    let context: BrowserContext;

    before(async () => {
      open = await startRealEngine(undefined, { deviceRegistry: false });
      context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
    });
    after(async () => {
      await context?.close();
      await open?.stop();
    });

    it("opens the page without a login and explains the disabled registry", async () => {
      const page = await context.newPage();
      await page.goto(`${open.baseUrl}/status#devices`);
      expect(new URL(page.url()).pathname).to.equal("/status");
      const note = page.locator("#devices-disabled");
      await note.waitFor();
      expect(await page.getByRole("button", { name: "Sign out" }).count()).to.equal(0);
      expect(await note.textContent()).to.include("DEVICE_REGISTRY_ENABLED");
      await live(page);
      await expectAccessible(page, "devices with the registry off");
      await screenshot(page, "devices-disabled");
    });
  });
});
