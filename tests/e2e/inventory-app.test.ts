import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { expect } from "chai";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type RunningHearth, startHearth } from "../../src/composition/hearth.js";
import { launchChromium } from "../support/browser.js";
import { acquireBroker, acquireDatabase, type TestBroker, type TestDatabase } from "../support/test-servers.js";
import { expectAccessible } from "./support/accessibility.js";

const root = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "frozen peas 2026";
/** The budget for the first load: JavaScript and CSS, gzipped. */
const FIRST_LOAD_BUDGET = 150 * 1024;

interface Story {
  hearth: RunningHearth;
  baseUrl: string;
  anna: { context: BrowserContext; page: Page };
  ben: { context: BrowserContext; page: Page };
  /** Whether the running API has the consume route (from the household issue). */
  hasConsume: boolean;
}

async function register(page: Page, baseUrl: string, name: string, email: string, url = `${baseUrl}/`): Promise<void> {
  await page.goto(url);
  await page.getByRole("button", { name: "No account yet? Create one" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

async function quickAdd(
  page: Page,
  name: string,
  quantity: string,
  compartment: string,
  expires?: string,
): Promise<void> {
  // The form is folded behind the add button that stays in reach (phone first).
  if (!(await page.locator("#add-name").isVisible())) await page.getByRole("button", { name: "Add item" }).click();
  await page.getByLabel("What").fill(name);
  await page.getByLabel("How many").fill(quantity);
  await page.locator("#add-compartment").selectOption({ label: compartment });
  if (expires) await page.getByLabel("Best before").fill(expires);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.locator("#list-title ~ ul.items .item-name", { hasText: name }).first().waitFor();
}

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86400000).toISOString().slice(0, 10);
}

function familyStory(variant: "PGlite" | "PostgreSQL"): void {
  describe(`inventory web app: the family story on ${variant}`, function () {
    this.timeout(120_000);
    let browser: Browser | null = null;
    let database: TestDatabase | null = null;
    let broker: TestBroker | null = null;
    let scratch = "";
    let story: Story;

    before(async function () {
      browser = await launchChromium(`inventory web app (${variant})`);
      if (!browser) this.skip();
      if (variant === "PostgreSQL") {
        database = await acquireDatabase("inventory web app");
        if (database.kind !== "postgres") {
          console.log(
            "\n      !!! inventory web app on PostgreSQL SKIPPED: no TEST_DATABASE_URL and no Docker engine (the PGlite run covers the story)\n",
          );
          this.skip();
        }
      }
      broker = await acquireBroker("inventory web app");
      scratch = await mkdtemp(path.join(tmpdir(), "hearth-web-app-"));
      // The app as the checkout's sources are now, not as the last `npm install` left it.
      const webDir = path.join(scratch, "web");
      execFileSync(process.execPath, [path.join(root, "scripts/build-web.mjs"), "--out-dir", webDir], {
        stdio: "pipe",
      });
      const hearth = await startHearth({
        env: {
          DATA_DIR: path.join(scratch, "data"),
          AUTOMATIONS_DIR: path.join(scratch, "automations"),
          MQTT_HOST: broker.host,
          MQTT_PORT: String(broker.port),
          LOG_LEVEL: "warn",
          HTTP_AUTH: "false",
          WEB_APP_DIR: webDir,
          // Two people on one loopback address sign in and reload often within a minute.
          AUTH_RATE_LIMIT_PER_MINUTE: "1000",
          RATE_LIMIT_PER_MINUTE: "10000",
          ...(database?.url ? { DATABASE_URL: database.url } : {}),
        },
        apiPort: 0,
        httpPort: 0,
        logStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
      });
      const baseUrl = `http://localhost:${hearth.apiPort}`;
      const openapi = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      const phone = await browser.newContext({
        viewport: { width: 360, height: 740 },
        locale: "en-GB",
        hasTouch: true,
        isMobile: true,
      });
      const desktop = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        locale: "en-GB",
        colorScheme: "dark",
      });
      story = {
        hearth,
        baseUrl,
        anna: { context: phone, page: await phone.newPage() },
        ben: { context: desktop, page: await desktop.newPage() },
        hasConsume: Object.keys(openapi.paths).some((route) => route.endsWith("/households/{hid}/items/{iid}/consume")),
      };
    });

    after(async () => {
      await browser?.close();
      await story?.hearth.stop();
      await database?.release();
      await broker?.release();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    it("loads under 150 kB of gzipped JavaScript and CSS, with the security headers", async () => {
      const page = await story.anna.context.newPage();
      const bodies: Promise<Buffer>[] = [];
      page.on("response", (response) => {
        const type = response.request().resourceType();
        if (type === "script" || type === "stylesheet") bodies.push(response.body());
      });
      const response = await page.goto(`${story.baseUrl}/`);
      expect(response?.headers()["content-security-policy"]).to.include("script-src 'self'");
      expect(response?.headers()["cache-control"]).to.equal("no-cache");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      const sizes = (await Promise.all(bodies)).map((body) => gzipSync(body).length);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      console.log(
        `      [e2e] first load: ${sizes.length} files, ${(total / 1024).toFixed(1)} kB gzipped (budget 150 kB)`,
      );
      expect(sizes.length).to.be.greaterThan(1);
      expect(total).to.be.below(FIRST_LOAD_BUDGET);
      await expectAccessible(page, "sign-in");
      await page.close();
    });

    it("speaks German to a German browser", async () => {
      const context = await browser!.newContext({ locale: "de-DE" });
      const page = await context.newPage();
      await page.goto(`${story.baseUrl}/`);
      await page.getByRole("heading", { name: "Anmelden" }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).to.equal("de");
      await page.getByLabel("E-Mail").fill("nobody@example.com");
      await page.getByLabel("Passwort").fill("wrong password");
      await page.getByRole("button", { name: "Anmelden" }).click();
      expect(await page.getByRole("alert").textContent()).to.equal(
        "E-Mail und Passwort passen zu keinem Konto. Prüfe beides und versuche es noch einmal.",
      );
      await context.close();
    });

    it("1. registers two users", async () => {
      await register(story.anna.page, story.baseUrl, "Anna", `anna-${variant}@example.com`);
      await story.anna.page.getByRole("heading", { name: "Welcome" }).waitFor();
      await expectAccessible(story.anna.page, "welcome (phone)");
      // One main landmark with one heading: the household form is part of it, not a page inside it.
      expect(await story.anna.page.locator("main").count(), "main landmarks").to.equal(1);
      expect(await story.anna.page.locator("h1").count(), "top headings").to.equal(1);
      // The refresh token never reaches page scripts: only the HttpOnly cookie holds it.
      const cookies = await story.anna.context.cookies();
      const refresh = cookies.find((cookie) => cookie.name === "hearth_refresh");
      expect(refresh?.httpOnly).to.equal(true);
      expect(refresh?.sameSite).to.equal("Strict");
      expect(refresh?.path).to.equal("/api/v1/auth/web");
      expect(await story.anna.page.evaluate(() => document.cookie)).to.equal("");
      // A reload keeps the session (refresh cookie → new access token in memory).
      await story.anna.page.reload();
      await story.anna.page.getByRole("heading", { name: "Welcome" }).waitFor();

      await register(story.ben.page, story.baseUrl, "Ben", `ben-${variant}@example.com`);
      await story.ben.page.getByRole("heading", { name: "Welcome" }).waitFor();
    });

    it("2. creates a household and a freezer with compartments", async () => {
      const { page } = story.anna;
      await page.getByLabel("Household name").fill("The Smiths");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.getByRole("heading", { name: "Expiring soon" }).waitFor();
      await page.getByRole("navigation").getByRole("link", { name: "Freezers" }).click();
      await page.getByLabel("New freezer").fill("Chest");
      await page.getByRole("button", { name: "Add freezer" }).click();
      for (const name of ["Drawer 3", "Drawer 1"]) {
        await page.getByLabel("New compartment in Chest").fill(name);
        await page.getByRole("button", { name: "Add compartment" }).click();
        await page.locator(".compartment-name", { hasText: name }).waitFor();
      }
      // Reorder: Drawer 1 goes up, above Drawer 3.
      await page.getByRole("button", { name: "Move Drawer 1 up" }).click();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll(".compartment-name"))
            .map((node) => node.textContent)
            .join(",") === "Drawer 1,Drawer 3",
      );
      // Freezers reorder too: a second freezer goes last, moves up above Chest, and (to keep the
      // rest of the story to one freezer) is deleted again while it is empty.
      await page.getByLabel("New freezer").fill("Upright");
      await page.getByRole("button", { name: "Add freezer" }).click();
      const freezerOrder = (expected: string) =>
        page.waitForFunction(
          (names) =>
            Array.from(document.querySelectorAll(".card > h2"))
              .map((node) => node.textContent)
              .join(",") === names,
          expected,
        );
      await freezerOrder("Chest,Upright");
      await page.getByRole("button", { name: "Move the freezer Upright up" }).click();
      await freezerOrder("Upright,Chest");
      await expectAccessible(page, "freezers (phone)");
      const upright = page.locator(".card", { has: page.getByRole("heading", { name: "Upright" }) });
      await upright.getByRole("button", { name: "Delete freezer" }).click();
      await upright.getByRole("button", { name: "Yes, delete" }).click();
      await freezerOrder("Chest");
    });

    it("3. invites the second user through the link, who accepts it", async () => {
      const { page } = story.anna;
      await page.getByRole("navigation").getByRole("link", { name: "Household" }).click();
      await page.getByRole("button", { name: "Create invite" }).click();
      const linkInput = page.getByRole("textbox", { name: "Invite link" });
      await linkInput.waitFor();
      const link = await linkInput.inputValue();
      expect(link).to.match(/\/invite\/.+/);
      await page.locator(".qr svg").waitFor();
      await expectAccessible(page, "household with invite (phone)");

      await story.ben.page.goto(link);
      await story.ben.page.getByRole("heading", { name: "Expiring soon" }).waitFor();
      expect(await story.ben.page.locator(".household-name").textContent()).to.equal("The Smiths");
      // The link is single-use: opening it again says so in a sentence.
      await story.ben.page.goto(link);
      await story.ben.page.getByRole("alert").waitFor();
      expect(await story.ben.page.getByRole("alert").textContent()).to.match(
        /expired or was already used|already a member/,
      );
      await story.ben.page.getByRole("link", { name: "Go to the home screen" }).click();

      // Someone without an account opens a link: they register first, then join.
      await page.getByRole("button", { name: "Create invite" }).click();
      // The used invite is no longer pending, so the list shows only the new one.
      await page.waitForFunction(
        (used) =>
          Array.from(document.querySelectorAll<HTMLInputElement>(".invite input")).some(
            (input) => input.value !== used,
          ),
        link,
      );
      const second = await page.getByRole("textbox", { name: "Invite link" }).inputValue();
      expect(second).to.not.equal(link);
      const cleo = await browser!.newContext({ locale: "en-GB" });
      const cleoPage = await cleo.newPage();
      await cleoPage.goto(second);
      await cleoPage.getByText("You were invited to a household.").waitFor();
      await cleoPage.getByLabel("Name", { exact: true }).fill("Cleo");
      await cleoPage.getByLabel("E-mail").fill(`cleo-${variant}@example.com`);
      await cleoPage.getByLabel("Password").fill(PASSWORD);
      await cleoPage.getByRole("button", { name: "Create account" }).click();
      await cleoPage.getByRole("heading", { name: "Expiring soon" }).waitFor();
      expect(await cleoPage.locator(".household-name").textContent()).to.equal("The Smiths");
      await cleo.close();

      await page.reload();
      await page.locator(".member", { hasText: "Cleo" }).waitFor();
      await page.locator(".member", { hasText: "Ben" }).waitFor();
      expect(await page.locator(".member", { hasText: "Ben" }).textContent()).to.include("Member");
    });

    it("4. both add, search, move and consume items", async function () {
      const anna = story.anna.page;
      const ben = story.ben.page;
      await anna.getByRole("navigation").getByRole("link", { name: "Home" }).click();
      await quickAdd(anna, "Peas", "2", "Drawer 1", isoDay(3));
      // Expiring within the week: the home screen's first section shows it.
      await anna.locator("#expiring-title ~ ul.items .item-name", { hasText: "Peas" }).waitFor();
      // The place is remembered from the last add.
      expect(await anna.locator("#add-compartment option:checked").textContent()).to.equal("Drawer 1");
      await ben.reload();
      await quickAdd(ben, "Fish fingers", "10", "Drawer 3");
      await quickAdd(ben, "Pear halves", "1", "Drawer 3", isoDay(90));
      // The name field suggests names the household used before.
      await ben.getByLabel("What").fill("pea");
      await ben.waitForFunction(() =>
        Array.from(document.querySelectorAll<HTMLOptionElement>("#add-name-suggestions option")).some(
          (option) => option.value === "Peas",
        ),
      );
      await ben.getByLabel("What").fill("");
      await expectAccessible(anna, "home (phone)");
      await expectAccessible(ben, "home (desktop, dark)");

      // Search as you type: the API's prefix search, debounced.
      await ben.getByLabel("Search").fill("pea");
      await ben.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items li").length === 2);
      await ben.getByLabel("Search").fill("peas");
      await ben.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items li").length === 1);

      // Ben moves the peas to Drawer 3.
      await ben.locator("#list-title ~ ul.items .item-link", { hasText: "Peas" }).click();
      await ben.getByRole("heading", { name: "Peas", level: 1 }).waitFor();
      await ben.locator("#move-compartment").selectOption({ label: "Drawer 3" });
      await ben.getByRole("button", { name: "Move here" }).click();
      await ben.locator("ol.history li", { hasText: "moved it from Drawer 1 to Drawer 3" }).waitFor();
      await expectAccessible(ben, "item (desktop, dark)");

      if (!story.hasConsume) {
        // Pending, not failing: the consume route comes with the household issue's branch.
        console.log(
          "      [e2e] consume step PENDING: this server has no POST /households/{hid}/items/{iid}/consume yet (issue 12)",
        );
        this.skip();
      }
      await anna.reload();
      await anna.locator("#list-title ~ ul.items .item-link", { hasText: "Fish fingers" }).click();
      await anna.getByLabel("How many to take out").fill("3");
      await anna.getByRole("button", { name: "Take out" }).click();
      await anna.locator("ol.history li", { hasText: "changed the quantity from 10 to 7" }).waitFor();
      // Taking out the rest uses it up: it goes to the archive and the app returns home.
      await anna.getByLabel("How many to take out").fill("7");
      await anna.getByRole("button", { name: "Take out" }).click();
      await anna.waitForURL(`${story.baseUrl}/`);
    });

    it("5. archives and restores", async () => {
      const anna = story.anna.page;
      await anna.goto(`${story.baseUrl}/`);
      await anna.locator("#list-title ~ ul.items .item-link", { hasText: "Peas" }).click();
      await anna.getByRole("button", { name: "Archive" }).click();
      await anna.getByRole("button", { name: "Yes, archive" }).click();
      await anna.getByRole("heading", { name: "Expiring soon" }).waitFor();
      await anna.waitForFunction(
        () =>
          !Array.from(document.querySelectorAll("#list-title ~ ul.items .item-name")).some(
            (node) => node.textContent === "Peas",
          ),
      );
      await anna.getByRole("navigation").getByRole("link", { name: "Archive" }).click();
      await anna.locator(".card", { hasText: "Peas" }).getByRole("button", { name: "Restore" }).click();
      await anna.getByText("The archive is empty.").or(anna.locator(".card")).first().waitFor();
      await expectAccessible(anna, "archive (phone)");
      await anna.getByRole("navigation").getByRole("link", { name: "Home" }).click();
      await anna.locator("#list-title ~ ul.items .item-name", { hasText: "Peas" }).waitFor();

      // Edit, archive and (owner) delete for good, after confirming.
      await anna.locator("#list-title ~ ul.items .item-link", { hasText: "Pear halves" }).click();
      await anna.getByLabel("What").fill("Pear halves in syrup");
      await anna.getByRole("button", { name: "Save" }).click();
      await anna.getByRole("heading", { name: "Pear halves in syrup", level: 1 }).waitFor();
      await anna.getByRole("button", { name: "Archive" }).click();
      await anna.getByRole("button", { name: "Yes, archive" }).click();
      await anna.getByRole("heading", { name: "Expiring soon" }).waitFor();
      await anna.getByRole("navigation").getByRole("link", { name: "Archive" }).click();
      const card = anna.locator(".card", { hasText: "Pear halves in syrup" });
      await card.getByRole("button", { name: "Delete permanently" }).click();
      await card.getByRole("button", { name: "Yes, delete for good" }).click();
      await card.waitFor({ state: "detached" });

      // A freezer that still holds items cannot be deleted, and the app says why.
      await anna.getByRole("navigation").getByRole("link", { name: "Freezers" }).click();
      await anna.getByRole("button", { name: "Delete freezer" }).click();
      await anna.getByRole("button", { name: "Yes, delete" }).click();
      await anna.getByRole("alert").filter({ hasText: "This freezer still holds items" }).waitFor();
    });

    it("6. shows the history as sentences", async () => {
      const anna = story.anna.page;
      await anna.getByRole("navigation").getByRole("link", { name: "Home" }).click();
      await anna.locator("#list-title ~ ul.items .item-link", { hasText: "Peas" }).click();
      await anna.locator("ol.history li").first().waitFor();
      const history = await anna.locator("ol.history li").allTextContents();
      expect(history.join("\n")).to.match(/Ben moved it from Drawer 1 to Drawer 3, (now|\d+ (seconds?|minutes?) ago)/);
      expect(await anna.locator("section", { has: anna.locator("#history-title") }).textContent()).to.match(
        /Anna added it/,
      );
    });

    it("7. works offline with the shell: the last list and a banner", async () => {
      const { page, context } = story.anna;
      await page.goto(`${story.baseUrl}/`);
      await page.locator("#list-title ~ ul.items .item-name", { hasText: "Peas" }).waitFor();
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      // Reloaded once under the worker's control, so the shell is served from its cache.
      await page.reload();
      await page.locator("#list-title ~ ul.items .item-name", { hasText: "Peas" }).waitFor();
      await context.setOffline(true);
      try {
        await page.reload();
        await page.getByRole("status").filter({ hasText: "You are offline" }).waitFor();
        await page.locator("#list-title ~ ul.items .item-name", { hasText: "Peas" }).waitFor();
        // Adding stays possible offline: it is queued (tests/e2e/inventory-app-family.test.ts, point 13).
        expect(await page.getByRole("button", { name: "Add item" }).isEnabled()).to.equal(true);
        await expectAccessible(page, "offline home (phone)");
      } finally {
        await context.setOffline(false);
      }
    });
  });
}

familyStory("PGlite");
familyStory("PostgreSQL");
