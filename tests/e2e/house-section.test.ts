import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type RunningHearth, startHearth } from "../../src/composition/hearth.js";
import { HOUSE_MESSAGES, type HouseKey } from "../../web/src/house/messages.js";
import { launchChromium } from "../support/browser.js";
import { acquireBroker, type TestBroker } from "../support/test-servers.js";
import { contextOptions, PASSWORD, PROFILES, type Profile, text } from "./support/family-app.js";
import { expectAccessible } from "./support/accessibility.js";

const root = path.resolve(import.meta.dirname, "../..");

const AUTOMATION = `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class Porch extends Automation {
  readonly name = "porch-light";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "house-e2e/porch" }];
  async execute(_context: TriggerContext): Promise<void> {
    await Promise.resolve();
    this.state.set("porch.seen", true);
  }
}
`;

/** Nothing wider than the phone's screen but the tables' own scrolling regions. */
async function expectNoSidewaysScroll(page: Page, screen: string): Promise<void> {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  expect(wide, `${screen} scrolls sideways`).to.equal(false);
}

function house(profile: Profile, key: HouseKey, values: Record<string, string | number> = {}): string {
  return HOUSE_MESSAGES[profile.lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

interface Account {
  id: string;
  name: string;
  email: string;
  token: string;
}

describe("the House section of the family app (issue 25)", function () {
  this.timeout(180_000);
  let browser: Browser | null = null;
  let hearth: RunningHearth | null = null;
  let broker: TestBroker | null = null;
  let scratch = "";
  let automations = "";
  let baseUrl = "";
  let admin: Account;
  let counter = 0;

  async function call<T>(
    token: string,
    method: string,
    route: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const answer = await fetch(`${baseUrl}/api/v1${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const textBody = await answer.text();
    return { status: answer.status, body: (textBody ? JSON.parse(textBody) : null) as T };
  }

  async function register(name: string): Promise<Account> {
    const email = `${name.toLowerCase()}-${Date.now()}-${++counter}@example.com`;
    const response = await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD, name }),
    });
    expect(response.status, `register ${name}`).to.equal(201);
    const session = (await response.json()) as { accessToken: string };
    const me = await call<{ id: string }>(session.accessToken, "GET", "/users/me");
    return { id: me.body.id, name, email, token: session.accessToken };
  }

  /** A browser context signed in as `account` (the web sign-in sets the refresh cookie). */
  async function signedIn(profile: Profile, account: Account): Promise<{ context: BrowserContext; page: Page }> {
    if (!browser) throw new Error("no browser");
    const context = await browser.newContext(contextOptions(profile));
    const response = await context.request.post(`${baseUrl}/api/v1/auth/web/login`, {
      headers: { "X-Hearth-Client": "web" },
      data: { email: account.email, password: PASSWORD },
    });
    expect(response.ok(), `sign in ${account.name}`).to.equal(true);
    return { context, page: await context.newPage() };
  }

  before(async function () {
    this.timeout(300_000);
    browser = await launchChromium("house section");
    if (!browser) this.skip();
    broker = await acquireBroker("house section");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-house-e2e-"));
    await mkdir(path.join(root, "tmp"), { recursive: true });
    // Under the checkout, so the automation's `import "hearth"` resolves.
    automations = await mkdtemp(path.join(root, "tmp", "house-e2e-"));
    await writeFile(path.join(automations, "porch.ts"), AUTOMATION);
    const webDir = path.join(scratch, "web");
    execFileSync(process.execPath, [path.join(root, "scripts/build-web.mjs"), "--out-dir", webDir], { stdio: "pipe" });
    hearth = await startHearth({
      env: {
        DATA_DIR: path.join(scratch, "data"),
        AUTOMATIONS_DIR: automations,
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        LOG_LEVEL: "info",
        DEVICE_REGISTRY_ENABLED: "false",
        INVENTORY_MQTT_PREFIX: `house-e2e-${Date.now()}/hearth`,
        WEB_APP_DIR: webDir,
        AUTH_RATE_LIMIT_PER_MINUTE: "10000",
        RATE_LIMIT_PER_MINUTE: "100000",
      },
      apiPort: 0,
      httpPort: 0,
      logStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    baseUrl = `http://localhost:${hearth.apiPort}`;
    // The installation's first account is its admin.
    admin = await register("Ada");
  });

  after(async () => {
    await browser?.close();
    await hearth?.stop();
    await broker?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    if (automations) await rm(automations, { recursive: true, force: true });
  });

  for (const profile of PROFILES) {
    describe(profile.name, () => {
      const say = (key: Parameters<typeof text>[1]) => text(profile, key);
      const nav = (page: Page) => page.getByRole("navigation", { name: say("nav.label") });

      it("the first account is admin: House in the navigation, every page loads, axe-clean, live", async () => {
        const { context, page } = await signedIn(profile, admin);
        try {
          await page.goto(`${baseUrl}/`);
          const link = nav(page).getByRole("link", { name: say("nav.house"), exact: true });
          await link.click();
          expect(new URL(page.url()).pathname).to.equal("/house");
          await page.getByRole("heading", { level: 1, name: house(profile, "house.overview") }).waitFor();
          await page.locator("#stat-engine .badge").waitFor();
          expect(await page.title()).to.equal(
            `${house(profile, "house.overview")} – ${say("nav.house")} – ${say("app.title")}`,
          );
          await page.locator("tr[data-automation='porch-light']").waitFor();
          await expectAccessible(page, "House overview");
          if (profile.phone) await expectNoSidewaysScroll(page, "House overview");

          const sections = page.getByRole("navigation", { name: house(profile, "house.sections") });
          // Each page with what shows that it has loaded.
          const pages: [HouseKey, string][] = [
            ["house.automations", "article[data-name='porch-light']"],
            ["house.devices", "#devices-disabled"],
            ["house.services", "#services-table, #services-none"],
            ["house.logs", "#log-summary"],
            ["house.homekit", "#homekit, #homekit-none"],
            ["house.admins", "#admins-table"],
            ["house.state", "#state-summary"],
          ];
          for (const [key, loaded] of pages) {
            await sections.getByRole("link", { name: house(profile, key) }).click();
            await page.getByRole("heading", { level: 1, name: house(profile, key) }).waitFor();
            await page.locator(loaded).first().waitFor();
            // Each page names itself in the tab and the browser history, not "House" for all.
            expect(await page.title()).to.equal(`${house(profile, key)} – ${say("nav.house")} – ${say("app.title")}`);
            await expectAccessible(page, `House ${key}`);
            if (profile.phone) await expectNoSidewaysScroll(page, `House ${key}`);
          }

          // Live: a key set elsewhere appears without a reload, once the stream is connected.
          await page.locator("#house-live", { hasText: house(profile, "house.live.on") }).waitFor();
          const key = `e2e.${profile.lang}.${profile.phone ? "phone" : "desktop"}`;
          const put = await call(admin.token, "PUT", `/house/state/${encodeURIComponent(key)}`, { value: "on" });
          expect(put.status).to.equal(200);
          await page.locator(`tr[data-key='${key}']`).waitFor({ timeout: 10_000 });

          // Run the automation by hand: its run shows in its stats without a reload.
          await sections.getByRole("link", { name: house(profile, "house.automations") }).click();
          const card = page.locator("article[data-name='porch-light']");
          await card.getByText(house(profile, "house.run")).click();
          await card.getByRole("button", { name: house(profile, "house.run.submit") }).click();
          await card
            .locator("p[aria-live]", { hasText: house(profile, "house.run.done", { time: "" }).slice(0, 5) })
            .waitFor();
          await card.getByText(house(profile, "house.traces")).click();
          await card.locator("details.trace[data-status='ok']").first().waitFor();
          await expectAccessible(page, "House automations, run and traces open");
        } finally {
          await context.close();
        }
      });

      it("a member sees no House, gets 403 from the house routes; an admin grants admin in the app, and takes it back", async () => {
        const member = await register(profile.lang === "de" ? "Bruno" : "Bea");
        const refused = await call<{ code?: string }>(member.token, "GET", "/house/status");
        expect(refused.status).to.equal(403);
        const mine = await signedIn(profile, member);
        const theirs = await signedIn(profile, admin);
        try {
          await mine.page.goto(`${baseUrl}/`);
          await nav(mine.page)
            .getByRole("link", { name: say("nav.account") })
            .waitFor();
          expect(
            await nav(mine.page)
              .getByRole("link", { name: say("nav.house"), exact: true })
              .count(),
          ).to.equal(0);
          await mine.page.goto(`${baseUrl}/house`);
          await mine.page.getByText(say("house.notAdmin")).waitFor();
          await expectAccessible(mine.page, "House as a member");

          await theirs.page.goto(`${baseUrl}/house/admins`);
          const row = theirs.page.locator(`tr[data-account='${member.email}']`);
          await row.getByRole("button", { name: house(profile, "house.admins.grantShort") }).click();
          await theirs.page
            .locator("#admins-note", { hasText: house(profile, "house.admins.granted", { name: member.name }) })
            .waitFor();
          await row.getByText(house(profile, "house.admins.admin"), { exact: true }).waitFor();
          await expectAccessible(theirs.page, "Admins screen");

          await mine.page.goto(`${baseUrl}/`);
          await nav(mine.page)
            .getByRole("link", { name: say("nav.house"), exact: true })
            .click();
          await mine.page.getByRole("heading", { level: 1, name: house(profile, "house.overview") }).waitFor();

          // Taken back while the page is open: the next House request says so, without an error page.
          await mine.page.goto(`${baseUrl}/house/state`);
          await mine.page.locator("#state-add").waitFor();
          await row.getByRole("button", { name: house(profile, "house.admins.revokeShort") }).click();
          await row.getByRole("button", { name: house(profile, "house.admins.revokeShort") }).click();
          await row.getByText(house(profile, "house.admins.member"), { exact: true }).waitFor();
          await mine.page.locator("#state-new-key").fill("after-revoke");
          await mine.page.getByRole("button", { name: house(profile, "house.state.set") }).click();
          await mine.page
            .getByRole("alert")
            .filter({ hasText: house(profile, "house.revoked") })
            .waitFor();
          expect(
            await nav(mine.page)
              .getByRole("link", { name: say("nav.house"), exact: true })
              .count(),
          ).to.equal(0);
          await expectAccessible(mine.page, "House after the role was taken back");
          const state = await call<{ exists: boolean }>(admin.token, "GET", "/house/state/after-revoke");
          expect(state.body.exists).to.equal(false);
        } finally {
          await mine.context.close();
          await theirs.context.close();
        }
      });
    });
  }

  it("a family member's first load stays small: the House chunk is not part of it", async () => {
    if (!browser) return;
    const member = await register("Cleo");
    const { context, page } = await signedIn(PROFILES[0] as Profile, member);
    try {
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(request.url());
      });
      await page.goto(`${baseUrl}/`);
      await nav0(page).waitFor();
      expect(
        scripts.some((url) => /\/assets\/house-/.test(url)),
        scripts.join(", "),
      ).to.equal(false);
    } finally {
      await context.close();
    }
  });

  function nav0(page: Page) {
    return page.getByRole("navigation", { name: text(PROFILES[0] as Profile, "nav.label") });
  }
});
