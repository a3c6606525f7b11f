import { expect } from "chai";
import type { Page } from "playwright-core";
import {
  type AppServer,
  addItem,
  household,
  join,
  member,
  PROFILES,
  type Profile,
  startAppServer,
  text,
} from "./support/family-app.js";

/** The calendar day `offset` days from now in UTC, as the API stores a date ("2026-11-25"). */
function utcDay(offset = 0, from = Date.now()): string {
  return new Date(from + offset * 86400000).toISOString().slice(0, 10);
}

/** The id of the focused element, or its tag when it has none ("BODY" means focus was lost). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return active?.id || active?.tagName || "";
  });
}

function issue22(variant: "PGlite" | "PostgreSQL"): void {
  describe(`inventory web app, issue 22 (family use) on ${variant}`, function () {
    this.timeout(120_000);
    let server: AppServer;
    let stop: () => Promise<void> = async () => undefined;

    before(async function () {
      const started = await startAppServer(variant, "inventory web app, issue 22");
      stop = started.stop;
      if (!started.server) this.skip();
      server = started.server;
    });

    after(async () => {
      await stop();
    });

    for (const profile of PROFILES) {
      describe(profile.name, () => {
        profileTests(() => server, profile);
      });
    }
  });
}

function profileTests(getServer: () => AppServer, profile: Profile): void {
  const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
    text(profile, key, values);

  it("2. a failed household load (503, 429) says so with a retry, never the welcome screen", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    await household(anna, "The Smiths");
    const { page } = anna;
    try {
      for (const status of [503, 429]) {
        let failures = 1;
        await page.route("**/api/v1/households", async (route) => {
          if (failures > 0 && route.request().method() === "GET") {
            failures -= 1;
            await route.fulfill({
              status,
              headers: { "Content-Type": "application/json", "Retry-After": "7" },
              body: JSON.stringify({ statusCode: status, error: "Busy", message: "busy" }),
            });
          } else await route.continue();
        });
        await page.goto(`${server.baseUrl}/`);
        const sentence = status === 429 ? say("error.429.seconds", { seconds: 7 }) : say("error.unavailable");
        await page.getByRole("alert").filter({ hasText: sentence }).waitFor();
        expect(await page.getByRole("heading", { name: say("home.welcome") }).count()).to.equal(0);
        await page.getByRole("button", { name: say("action.retry") }).click();
        await page.locator(".household-name", { hasText: "The Smiths" }).waitFor();
        await page.unroute("**/api/v1/households");
      }
    } finally {
      await anna.context.close();
    }
  });

  it("3. 'expires today' and 'expired' follow the family's calendar day (Los Angeles, Sydney)", async () => {
    const server = getServer();
    // 25 November 2026: 17:30 in Los Angeles is already the 26th in UTC; 09:00 in Sydney is still the 24th.
    const cases = [
      { timeZone: "America/Los_Angeles", now: Date.parse("2026-11-26T01:30:00Z"), today: "2026-11-25" },
      { timeZone: "Australia/Sydney", now: Date.parse("2026-11-24T22:00:00Z"), today: "2026-11-25" },
    ];
    for (const { timeZone, now, today } of cases) {
      const anna = await member(server, profile, "Anna", { timezoneId: timeZone });
      try {
        const place = await household(anna, "The Smiths", timeZone);
        await addItem(anna, place, { name: "Soup", expiresAt: today });
        await addItem(anna, place, { name: "Fish", expiresAt: utcDay(-1, Date.parse(today)) });
        await addItem(anna, place, { name: "Bread", expiresAt: utcDay(1, Date.parse(today)) });
        await addItem(anna, place, { name: "Cake", expiresAt: utcDay(7, Date.parse(today)) });
        await anna.page.clock.setFixedTime(now);
        await anna.page.goto(`${server.baseUrl}/`);
        const expiry = (name: string) =>
          anna.page.locator("#list-title ~ ul.items .item-row", { hasText: name }).locator(".expiry");
        await expiry("Soup").waitFor();
        expect(await expiry("Soup").textContent(), `${timeZone}: today's soup`).to.equal(say("item.expiresToday"));
        expect(await expiry("Fish").getAttribute("class"), `${timeZone}: yesterday's fish`).to.include("expired");
        expect(await expiry("Bread").getAttribute("class"), `${timeZone}: tomorrow's bread`).to.not.include("expired");
        expect(await expiry("Bread").textContent()).to.not.equal(say("item.expiresToday"));
        // The expiring section counts a week of the family's days: today + 7 is in it.
        await anna.page.locator("#expiring-title ~ ul.items .item-name", { hasText: "Cake" }).waitFor();
      } finally {
        await anna.context.close();
      }
    }
  });

  it("4. a used-up item shows as used up with 'add again', not a Restore that fails", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const soup = await addItem(anna, place, { name: "Pumpkin soup", quantity: 2 });
      await anna.api("POST", `/households/${place.hid}/items/${soup.id}/consume`, { quantity: 2 });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/archive`);
      const card = page.locator(".card", { hasText: "Pumpkin soup" });
      await card.waitFor();
      expect(await card.textContent()).to.include(say("archive.usedUp", { date: "" }).trim());
      expect(await card.getByRole("button", { name: say("archive.restore") }).count()).to.equal(0);
      await card.getByRole("button", { name: say("archive.addAgain") }).click();
      expect(await page.locator("#add-name").inputValue()).to.equal("Pumpkin soup");
      await page.locator("#add-quantity").fill("3");
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      await page.locator("#list-title ~ ul.items .item-row", { hasText: "Pumpkin soup" }).waitFor();
    } finally {
      await anna.context.close();
    }
  });

  it("5. the server's refusals are in the app's language with the field's label; blank names are refused", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const peas = await addItem(anna, place, { name: "Peas" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/items/${peas.id}`);
      await page.locator("#edit-quantity").fill("2000000");
      await page.locator("#edit-quantity").press("Enter");
      await confirmUnlikely(page, profile);
      const limit = new Intl.NumberFormat(profile.lang === "de" ? "de-DE" : "en-GB").format(1_000_000);
      const expected = say("error.400.fields", {
        fields: `${say("field.quantity")}: ${say("rule.max", { n: limit })}`,
      });
      await page.getByRole("alert").filter({ hasText: expected }).waitFor();
      expect(await page.getByRole("alert").allTextContents()).to.not.include("must be at most 1000000");

      // A name of only spaces never leaves the form.
      await page.goto(`${server.baseUrl}/`);
      await openQuickAdd(page, profile);
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST" && request.url().endsWith("/items")) posts.push(request.url());
      });
      await page.locator("#add-name").fill("   ");
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      expect(await page.locator("#add-name").evaluate((input: HTMLInputElement) => input.validationMessage)).to.equal(
        say("rule.blank"),
      );
      expect(posts).to.deep.equal([]);
    } finally {
      await anna.context.close();
    }
  });
}

/** Opens the quick-add form where it is folded behind a button (the phone-first layout). */
async function openQuickAdd(page: Page, profile: Profile): Promise<void> {
  if (await page.locator("#add-name").isVisible()) return;
  await page.getByRole("button", { name: text(profile, "add.open") }).click();
  await page.locator("#add-name").waitFor();
}

/** Says "yes, that is right" to a soft confirmation of an unlikely value, where the app asks one. */
async function confirmUnlikely(page: Page, profile: Profile): Promise<void> {
  const confirm = page.getByRole("button", { name: text(profile, "unlikely.confirm") });
  await confirm.click();
}

issue22("PGlite");
issue22("PostgreSQL");
