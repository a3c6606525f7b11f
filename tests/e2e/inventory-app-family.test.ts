import { expect } from "chai";
import type { Page } from "playwright-core";
import {
  type AppServer,
  addItem,
  household,
  join,
  keptForOffline,
  member,
  openQuickAdd,
  PASSWORD,
  PROFILES,
  type Profile,
  useAppServer,
  text,
} from "./support/family-app.js";
import { expectAccessible, expectFocus } from "./support/accessibility.js";

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
    const server = useAppServer(variant, "inventory web app, issue 22");

    for (const profile of PROFILES) {
      describe(profile.name, () => {
        profileTests(server, profile);
      });
    }

    describe("found on a phone at 390×844", () => {
      phoneFindings(server);
    });
  });
}

/** Whether this device has kept item `id` in IndexedDB (what the item page shows offline). */
function keptItemOnDevice(page: Page, id: string): Promise<unknown> {
  return page.waitForFunction(
    (itemId) =>
      new Promise<boolean>((resolve) => {
        const opening = indexedDB.open("hearth");
        opening.onerror = () => resolve(false);
        opening.onsuccess = () => {
          const db = opening.result;
          const reading = db.transaction("items").objectStore("items").get(itemId);
          reading.onerror = () => resolve(false);
          reading.onsuccess = () => {
            db.close();
            resolve(reading.result !== undefined);
          };
        };
      }),
    id,
  );
}

/** A tester's findings on a phone, each in the language it was found in. */
function phoneFindings(getServer: () => AppServer): void {
  const english = PROFILES.find((profile) => profile.phone && profile.lang === "en")!;
  const german = PROFILES.find((profile) => profile.phone && profile.lang === "de")!;

  it("going offline and back online keeps what was typed on an item page (en-US)", async () => {
    const server = getServer();
    const say = (key: Parameters<typeof text>[1]) => text(english, key);
    const anna = await member(server, english, "Anna", { locale: "en-US" });
    try {
      const place = await household(anna, "The Smiths");
      const lasagne = await addItem(anna, place, { name: "Lasagne" });
      const { page, context } = anna;
      await page.goto(`${server.baseUrl}/items/${lasagne.id}`);
      await page.getByRole("heading", { name: "Lasagne", level: 1 }).waitFor();
      await keptItemOnDevice(page, lasagne.id);
      await page.getByLabel(say("field.itemName")).fill("Lasagne al forno");
      await page.locator("#edit-notes").fill("Draft A");

      await context.setOffline(true);
      await page.getByText(say("offline.draftKept")).waitFor();
      expect(await page.locator("#edit-name").isDisabled()).to.equal(true);
      expect(await page.locator("#edit-name").inputValue()).to.equal("Lasagne al forno");
      expect(await page.locator("#edit-notes").inputValue()).to.equal("Draft A");

      // The form is enabled again once the item has been loaded from the server again.
      await context.setOffline(false);
      await page.locator("#edit-name:enabled").waitFor();
      expect(await page.locator("#edit-name").inputValue()).to.equal("Lasagne al forno");
      expect(await page.locator("#edit-notes").inputValue()).to.equal("Draft A");

      await page.getByRole("button", { name: say("action.save") }).click();
      await page.getByRole("heading", { name: "Lasagne al forno", level: 1 }).waitFor();
      const saved = await anna.api<{ name: string; notes: string | null }>(
        "GET",
        `/households/${place.hid}/items/${lasagne.id}`,
      );
      expect(saved).to.include({ name: "Lasagne al forno", notes: "Draft A" });

      // A reload with something typed asks first; staying keeps the draft. The reload itself never
      // finishes once it is refused, so it is not waited for (closing the context ends it).
      await page.locator("#edit-notes").fill("Draft B");
      const asked = page.waitForEvent("dialog");
      void page.reload().catch(() => undefined);
      const dialog = await asked;
      expect(dialog.type()).to.equal("beforeunload");
      await dialog.dismiss();
      expect(await page.locator("#edit-notes").inputValue()).to.equal("Draft B");
    } finally {
      await anna.context.setOffline(false);
      await anna.context.close();
    }
  });

  it("signing out on this device signs out every tab of the browser (en-US)", async () => {
    const server = getServer();
    const say = (key: Parameters<typeof text>[1]) => text(english, key);
    const anna = await member(server, english, "Anna", { locale: "en-US" });
    const ben = await member(server, english, "Ben", { locale: "en-US" });
    try {
      const place = await household(anna, "The Smiths");
      await household(ben, "Ben's flat");
      await anna.api("POST", `/households/${place.hid}/shopping-list`, { name: "Milk" });
      const home = anna.page;
      const shopping = await anna.context.newPage();
      await home.goto(`${server.baseUrl}/`);
      await home.locator(".household-name", { hasText: "The Smiths" }).waitFor();
      await shopping.goto(`${server.baseUrl}/shopping-list`);
      await shopping.locator(".shopping-name", { hasText: "Milk" }).waitFor();

      await home.getByRole("link", { name: say("nav.account") }).click();
      await home.getByRole("button", { name: say("account.signOut") }).click();
      await home.getByRole("heading", { name: say("auth.login.title") }).waitFor();

      // The other tab shows the sign-in screen too, with nothing of the household left on it.
      await shopping.getByRole("heading", { name: say("auth.login.title") }).waitFor();
      expect(await shopping.locator("main").textContent()).not.to.include("Milk");
      expect(await shopping.locator(".household-name").count()).to.equal(0);
      expect(await shopping.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("hearth.")))).to.be
        .empty;

      // The next person signs in on that tab and sees their own household only.
      await shopping.locator("#auth-email").fill(ben.email);
      await shopping.locator("#auth-password").fill(PASSWORD);
      await shopping.getByRole("button", { name: say("auth.login.submit"), exact: true }).click();
      await shopping.locator(".household-name", { hasText: "Ben's flat" }).waitFor();
      expect(await shopping.locator("main").textContent()).not.to.include("Milk");
      const list = await anna.api<{ name: string }[]>("GET", `/households/${place.hid}/shopping-list`);
      expect(list.map((entry) => entry.name)).to.deep.equal(["Milk"]);
    } finally {
      await anna.context.close();
      await ben.context.close();
    }
  });

  it("signing out while offline asks before dropping unsent changes, signs every tab out, and ends the session once online (de-DE)", async () => {
    const server = getServer();
    const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
      text(german, key, values);
    const anna = await member(server, german, "Anna");
    try {
      const place = await household(anna, "Familie Schmidt");
      await addItem(anna, place, { name: "Erbsen" });
      const { page: home, context } = anna;
      await home.goto(`${server.baseUrl}/`);
      await home.locator(".household-name", { hasText: "Familie Schmidt" }).waitFor();
      await keptForOffline(home, place);
      const other = await context.newPage();
      await other.goto(`${server.baseUrl}/`);
      await other.locator(".household-name", { hasText: "Familie Schmidt" }).waitFor();
      const refresh = (await context.cookies()).find((cookie) => cookie.name === "hearth_refresh");
      expect(refresh, "the refresh cookie").not.to.equal(undefined);

      await context.setOffline(true);
      await openQuickAdd(home, german);
      await home.locator("#add-name").fill("Eis");
      await home.getByRole("button", { name: say("add.submit"), exact: true }).click();
      await home.waitForFunction(() => document.querySelectorAll(".pending li").length === 1);
      await home.keyboard.press("Escape");

      // The unsent change is not dropped without asking.
      await home.getByRole("link", { name: say("nav.account") }).click();
      await home.getByRole("button", { name: say("account.signOut") }).click();
      await home.getByText(say("account.signOutDiscards", { count: 1 })).waitFor();
      await home.getByRole("button", { name: say("account.signOutAnyway") }).click();
      await home.getByRole("heading", { name: say("auth.login.title") }).waitFor();
      await home
        .getByRole("alert")
        .filter({ hasText: say("account.signedOutOffline") })
        .waitFor();
      await expectAccessible(home, "signed out while offline (de-DE)");
      await other.getByRole("heading", { name: say("auth.login.title") }).waitFor();
      expect(await other.locator(".household-name").count()).to.equal(0);

      // Back online, the app tells the server: the old cookie's session is over, and a reload
      // does not resume it.
      await context.setOffline(false);
      await home.waitForFunction(() => localStorage.getItem("hearth-session.signOutPending") === null);
      const resumed = await fetch(`${server.baseUrl}/api/v1/auth/web/refresh`, {
        method: "POST",
        headers: { "X-Hearth-Client": "web", Cookie: `hearth_refresh=${refresh?.value}` },
      });
      expect(resumed.status, "a refresh with the cookie of the signed-out session").to.equal(401);
      await other.reload();
      await other.getByRole("heading", { name: say("auth.login.title") }).waitFor();
    } finally {
      await anna.context.setOffline(false);
      await anna.context.close();
    }
  });

  it("an address the app does not have says so, in both languages, and links home", async () => {
    const server = getServer();
    for (const profile of [english, german]) {
      const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
        text(profile, key, values);
      const anna = await member(server, profile, "Anna");
      try {
        await household(anna);
        const { page } = anna;
        // An old bookmark or a mistyped link: the server answers every path with the app.
        await page.goto(`${server.baseUrl}/shopping`);
        await page.getByRole("heading", { name: say("notFound.title"), level: 1 }).waitFor();
        await page.getByText(say("notFound.text", { path: "/shopping" })).waitFor();
        expect(await page.title()).to.equal(`${say("notFound.title")} – ${say("app.title")}`);
        expect(await page.locator("nav [aria-current=page]").count()).to.equal(0);
        await page.getByRole("link", { name: say("notFound.home") }).click();
        await page.locator("#list-title").waitFor();
        expect(new URL(page.url()).pathname).to.equal("/");
        await page.locator("nav [aria-current=page]", { hasText: say("nav.home") }).waitFor();
      } finally {
        await anna.context.close();
      }
    }
  });

  it("a link to an item of the member's other household switches to it (de-DE)", async () => {
    const server = getServer();
    const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
      text(german, key, values);
    const anna = await member(server, german, "Anna");
    try {
      const home = await household(anna, "Familie Schmidt");
      const flat = await household(anna, "Annas Wohnung");
      const fischstäbchen = await addItem(anna, home, { name: "Fischstäbchen" });
      await addItem(anna, flat, { name: "Eis" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.locator("#household-switch").selectOption(flat.hid);
      await page.locator("#list-title ~ ul.items .item-name", { hasText: "Eis" }).waitFor();

      await page.goto(`${server.baseUrl}/items/${fischstäbchen.id}`);
      await page.getByRole("heading", { name: "Fischstäbchen", level: 1 }).waitFor();
      await page.locator(".household-name", { hasText: "Familie Schmidt" }).waitFor();
      await page.getByText(say("item.otherHousehold", { name: "Familie Schmidt" })).waitFor();
      expect(await page.getByText(say("item.notFound")).count()).to.equal(0);

      // An item none of the households has any more keeps the sentence, and the household stays.
      const gone = await addItem(anna, flat, { name: "Pizza" });
      await anna.api("DELETE", `/households/${flat.hid}/items/${gone.id}`);
      await anna.api("DELETE", `/households/${flat.hid}/items/${gone.id}/permanent`);
      await page.goto(`${server.baseUrl}/items/${gone.id}`);
      await page.getByText(say("item.notFound")).waitFor();
      await page.locator(".household-name", { hasText: "Familie Schmidt" }).waitFor();
    } finally {
      await anna.context.close();
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

  it("6. a removed member is told what happened and which household they now see", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    const ben = await member(server, profile, "Ben");
    try {
      const smiths = await household(anna, "The Smiths");
      await household(ben, "Ben's flat");
      await join(anna, smiths, ben);
      await addItem(anna, smiths, { name: "Peas", quantity: 3 });
      const { page } = ben;
      await page.goto(`${server.baseUrl}/`);
      await page.locator("#household-switch").selectOption({ label: "The Smiths" });
      const row = page.locator("#list-title ~ ul.items .item-row", { hasText: "Peas" });
      await row.waitFor();
      await anna.api("DELETE", `/households/${smiths.hid}/members/${ben.userId}`);
      // Ben's tap finds out (a 403), unless the live stream's membership.ended got there first and
      // the row is already gone: either way the app must say what happened, and the alert below
      // waits for that. So a tap that finds no row is not a failure of its own.
      const takeOne = row.getByRole("button", { name: say("list.takeOne", { name: "Peas" }) });
      await takeOne.click({ timeout: 5_000 }).catch(() => undefined);
      await page
        .getByRole("alert")
        .filter({ hasText: say("household.lostSwitched", { name: "The Smiths", other: "Ben's flat" }) })
        .waitFor();
      await page.locator(".household-name", { hasText: "Ben's flat" }).waitFor();
      expect(await page.locator("body").textContent()).to.not.include(say("error.notOwner"));
    } finally {
      await anna.context.close();
      await ben.context.close();
    }
  });

  it("7. the owner deletes a household after a confirmation that Escape cancels", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      await household(anna, "The Smiths");
      const { page } = anna;
      await page.goto(`${server.baseUrl}/household`);
      const remove = page.getByRole("button", { name: say("household.delete"), exact: true });
      await remove.click();
      const confirm = page.getByRole("button", { name: say("household.deleteConfirm") });
      await confirm.waitFor();
      await expectFocus(page, "textContent", say("household.deleteConfirm"));
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
      // Cancelled: the focus is back on the button that asked, not on <body>.
      await page.waitForFunction((label) => document.activeElement?.textContent === label, say("household.delete"));
      await remove.click();
      await confirm.click();
      await page.getByRole("heading", { name: say("home.welcome") }).waitFor();
      await page
        .getByRole("alert")
        .filter({ hasText: say("household.deleted", { name: "The Smiths" }) })
        .waitFor();
      expect(await anna.api("GET", "/households")).to.deep.equal([]);
    } finally {
      await anna.context.close();
    }
  });

  it("8. phone first: search and the first result on the first screen, take one out in one tap, add in reach", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      for (let index = 0; index < 14; index += 1) {
        await addItem(anna, place, { name: `Soup ${index + 1}`, quantity: 2, expiresAt: utcDay(index % 5) });
      }
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      const firstRow = page.locator("#list-title ~ ul.items .item-row").first();
      await firstRow.waitFor();
      const screen = page.viewportSize()!;
      const search = (await page.locator("#list-search").boundingBox())!;
      const first = (await firstRow.boundingBox())!;
      expect(search.y + search.height, "search box on the first screen").to.be.at.most(screen.height);
      expect(first.y + first.height, "first result on the first screen").to.be.at.most(screen.height);
      // The filters are folded away until asked for.
      expect(await page.locator("#list-freezer").isVisible()).to.equal(false);
      // One tap from the list takes one out.
      const name = (await firstRow.locator(".item-name").textContent()) ?? "";
      const takeOne = firstRow.getByRole("button", { name: say("list.takeOne", { name }) });
      if (profile.phone) await takeOne.tap();
      else await takeOne.click();
      await page.locator("#announcer", { hasText: say("list.tookOne", { name, left: "1" }) }).waitFor();
      const items = await anna.api<{ data: { name: string; quantity: number }[] }>(
        "GET",
        `/households/${place.hid}/items?limit=50`,
      );
      expect(items.data.find((item) => item.name === name)?.quantity).to.equal(1);
      // At the end of a long list the add button is still on screen.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const add = page.getByRole("button", { name: say("add.open") });
      const box = (await add.boundingBox())!;
      expect(box.y + box.height).to.be.at.most(screen.height);
      expect(box.y).to.be.at.least(0);
      await add.click();
      await expectFocus(page, "id", "add-name");
      await expectAccessible(page, `home with quick add (${profile.name})`);
    } finally {
      await anna.context.close();
    }
  });

  it("9. focus stays useful (add, take out, save, cancel), screens are announced and titled", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const peas = await addItem(anna, place, { name: "Peas", quantity: 5 });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.waitForFunction((title) => document.title === title, `${say("nav.home")} – ${say("app.title")}`);
      await openQuickAdd(page, profile);
      await page.locator("#add-name").fill("Fish fingers");
      await page.locator("#add-name").press("Enter");
      await page.locator("#list-title ~ ul.items .item-name", { hasText: "Fish fingers" }).waitFor();
      // The cursor is back in the name field, so a phone keeps its keyboard open for the next item.
      await page.waitForFunction(() => document.activeElement?.id === "add-name");
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => document.activeElement?.classList.contains("fab"));

      await page.locator("#list-title ~ ul.items .item-link", { hasText: "Peas" }).click();
      await page.getByRole("heading", { name: "Peas", level: 1 }).waitFor();
      await page.waitForFunction((title) => document.title === title, `${say("item.title")} – ${say("app.title")}`);
      await page.locator("#announcer", { hasText: say("item.title") }).waitFor();
      await page.waitForFunction(() => document.activeElement?.tagName === "H1");

      await page.locator("#consume-quantity").fill("1");
      await page.locator("#consume-quantity").press("Enter");
      await page.locator("ol.history li").first().waitFor();
      await page.waitForFunction(() => document.activeElement !== document.body && document.activeElement !== null);
      expect(await focused(page)).to.not.equal("BODY");

      await page.locator("#edit-notes").fill("from the market");
      await page.getByRole("button", { name: say("action.save") }).click();
      await page.locator("ol.history li", { hasText: "from the market" }).waitFor();
      await page.waitForFunction(() => document.activeElement !== document.body);

      await page.getByRole("button", { name: say("item.archiveSubmit"), exact: true }).click();
      await page.getByRole("button", { name: say("item.archiveConfirm") }).waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: say("item.archiveConfirm") }).waitFor({ state: "detached" });
      await page.waitForFunction((label) => document.activeElement?.textContent === label, say("item.archiveSubmit"));
      expect(
        (await anna.api<{ deletedAt: string | null }>("GET", `/households/${place.hid}/items/${peas.id}`)).deletedAt,
      ).to.equal(null);

      // Reordering keeps the focus on the moved compartment's arrow.
      await anna.api("POST", `/households/${place.hid}/freezers/${place.fid}/compartments`, {
        name: "Drawer 2",
        position: 1,
      });
      await page.goto(`${server.baseUrl}/freezers`);
      await page.getByRole("button", { name: say("freezers.moveUp", { name: "Drawer 2" }) }).click();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll(".compartment-name"))
            .map((node) => node.textContent)
            .join(",") === "Drawer 2,Drawer 1",
      );
      await page.waitForFunction(
        (label) => document.activeElement?.getAttribute("aria-label") === label,
        say("freezers.moveDown", { name: "Drawer 2" }),
      );
    } finally {
      await anna.context.close();
    }
  });

  it("10. search and filters live in the URL: Back and reload keep them", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      await addItem(anna, place, { name: "Peas" });
      await addItem(anna, place, { name: "Pear halves" });
      await addItem(anna, place, { name: "Fish fingers" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.locator("#list-search").fill("pea");
      await page.waitForURL(/[?&]q=pea/);
      await page.locator(".more-filters summary").click();
      await page.locator("#list-freezer").selectOption({ label: "Chest" });
      await page.waitForURL(
        (url) => url.searchParams.get("freezer") === place.fid && url.searchParams.get("q") === "pea",
      );
      const rows = page.locator("#list-title ~ ul.items .item-row");
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 2);
      await rows.filter({ hasText: "Peas" }).locator(".item-link").click();
      await page.getByRole("heading", { name: "Peas", level: 1 }).waitFor();
      await page.goBack();
      await page.locator("#list-search").waitFor();
      expect(await page.locator("#list-search").inputValue()).to.equal("pea");
      expect(await page.locator("#list-freezer").inputValue()).to.equal(place.fid);
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 2);
      await page.reload();
      await page.locator("#list-search").waitFor();
      expect(await page.locator("#list-search").inputValue()).to.equal("pea");
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 2);
    } finally {
      await anna.context.close();
    }
  });

  it("11. expiring count and link, notes counter, soft confirmation, locale decimals", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      for (let index = 0; index < 12; index += 1) {
        await addItem(anna, place, { name: `Stew ${index + 1}`, expiresAt: utcDay(2) });
      }
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.waitForFunction(() => document.querySelectorAll("#expiring-title ~ ul.items .item-row").length === 10);
      await page.getByRole("link", { name: say("home.expiringMore", { count: 2 }) }).click();
      await page.waitForURL((url) => url.searchParams.has("before"));
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 12);

      // A past date asks once; "change it" goes back to the form and nothing is sent.
      await openQuickAdd(page, profile);
      await page.locator("#add-name").fill("Old bread");
      await page.locator("#add-expires").fill(utcDay(-30));
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: say("unlikely.past") })
        .waitFor();
      await page.getByRole("button", { name: say("unlikely.change") }).click();
      await expectFocus(page, "id", "add-name");
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      await confirmUnlikely(page, profile);
      await page.locator("#list-title ~ ul.items .item-name", { hasText: "Old bread" }).waitFor();

      // "1,5" in German and "1.5" in English are one and a half, never 15.
      const typed = profile.lang === "de" ? "1,5" : "1.5";
      await page.locator("#add-name").fill("Butter");
      await page.locator("#add-quantity").fill(typed);
      // Inside the list's "expires before" filter, which the expiring link set.
      await page.locator("#add-expires").fill(utcDay(3));
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      await page.locator("#list-title ~ ul.items .item-row", { hasText: "Butter" }).waitFor();
      const all = await anna.api<{ data: { id: string; name: string; quantity: number }[] }>(
        "GET",
        `/households/${place.hid}/items?limit=50`,
      );
      const butter = all.data.find((item) => item.name === "Butter")!;
      expect(butter.quantity).to.equal(1.5);
      expect(await page.locator("#list-title ~ ul.items .item-row", { hasText: "Butter" }).textContent()).to.include(
        `× ${typed}`,
      );

      // Notes are several lines with a counter that states the limit.
      await page.goto(`${server.baseUrl}/items/${butter.id}`);
      const notes = page.locator("textarea#edit-notes");
      await notes.fill("salted\nfrom the farm");
      const limit = new Intl.NumberFormat(profile.lang === "de" ? "de-DE" : "en-GB").format(2000);
      await page.locator("#edit-notes-count", { hasText: say("notes.count", { used: 20, limit }) }).waitFor();
      expect(await notes.getAttribute("maxlength")).to.equal("2000");
    } finally {
      await anna.context.close();
    }
  });

  it("12. live: Ben's open list shows Anna's new item; a stale save says so instead of overwriting", async function () {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    const ben = await member(server, profile, "Ben");
    try {
      const place = await household(anna, "The Smiths");
      await join(anna, place, ben);
      const probe = await fetch(`${server.baseUrl}/api/v1/households/${place.hid}/events`, {
        headers: { Authorization: `Bearer ${ben.token}`, Accept: "text/event-stream" },
        signal: AbortSignal.timeout(10_000),
      });
      await probe.body?.cancel();
      if (probe.status === 404) {
        console.log("      [e2e] live updates PENDING: this server has no GET /households/{hid}/events yet");
        this.skip();
      }
      const soup = await addItem(anna, place, { name: "Soup" });
      await ben.page.goto(`${server.baseUrl}/`);
      await ben.page.locator("#list-title ~ ul.items .item-name", { hasText: "Soup" }).waitFor();
      await addItem(anna, place, { name: "Ice cream" });
      // Waiting on the DOM, not a sleep: the one-second promise is the wait's own limit.
      await ben.page.locator("#list-title ~ ul.items .item-name", { hasText: "Ice cream" }).waitFor({ timeout: 5000 });

      // Ben edits the soup's name while Anna renames it: Ben's save shows Anna's name and a choice.
      await ben.page.goto(`${server.baseUrl}/items/${soup.id}`);
      await ben.page.locator("#edit-name").fill("Pea soup");
      await anna.api("PATCH", `/households/${place.hid}/items/${soup.id}`, { name: "Tomato soup" });
      await ben.page.getByRole("button", { name: say("action.save") }).click();
      await ben.page
        .getByRole("alert")
        .filter({ hasText: say("item.changedTitle") })
        .waitFor();
      expect(
        await ben.page
          .getByRole("alert")
          .filter({ hasText: say("item.changedTitle") })
          .textContent(),
      ).to.include("Tomato soup");
      const current = await anna.api<{ name: string }>("GET", `/households/${place.hid}/items/${soup.id}`);
      expect(current.name).to.equal("Tomato soup");
      await ben.page.getByRole("button", { name: say("item.changedKeepMine") }).click();
      await ben.page.getByRole("heading", { name: "Pea soup", level: 1 }).waitFor();
    } finally {
      await anna.context.close();
      await ben.context.close();
    }
  });

  it("13. offline: local search and sort (collation), read-only items, queued writes with each answer", async function () {
    // Under a full CI run this story has timed out once at a different step each time (the quick
    // add before its freezers were kept, now waited for; a list count): a second attempt, with a
    // new account, keeps one slow moment from failing the suite while the closing note tracks it.
    this.retries(1);
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      for (const name of ["Himbeeren", "Hähnchenbrustfilet", "Apfelmus"])
        await addItem(anna, place, { name, quantity: 3 });
      const { page, context } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 3);
      await keptForOffline(page, place);
      await context.setOffline(true);
      await page
        .getByRole("status")
        .filter({ hasText: say("offline.banner") })
        .waitFor();
      // Sorted by name here, as the language sorts: "Hähnchen…" before "Himbeeren".
      await page.locator(".more-filters summary").click();
      await page.locator("#list-sort").selectOption("name:asc");
      await page.locator(".list-count", { hasText: say("offline.localResults", { count: 3 }) }).waitFor();
      expect(await page.locator("#list-title ~ ul.items .item-name").allTextContents()).to.deep.equal([
        "Apfelmus",
        "Hähnchenbrustfilet",
        "Himbeeren",
      ]);
      await page.locator("#list-search").fill("himb");
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 1);

      // An item opens read-only from what this device kept.
      await page.locator("#list-title ~ ul.items .item-link", { hasText: "Himbeeren" }).click();
      await page.getByRole("heading", { name: "Himbeeren", level: 1 }).waitFor();
      await page.getByText(say("offline.readOnly")).waitFor();
      expect(await page.locator("#edit-name").isDisabled()).to.equal(true);
      await page.goBack();

      // Writes made offline wait, visibly.
      await page.locator("#list-search").fill("");
      await page.waitForFunction(() => document.querySelectorAll("#list-title ~ ul.items .item-row").length === 3);
      const row = (name: string) => page.locator("#list-title ~ ul.items .item-row", { hasText: name });
      await row("Himbeeren")
        .getByRole("button", { name: say("list.takeOne", { name: "Himbeeren" }) })
        .click();
      await row("Apfelmus")
        .getByRole("button", { name: say("list.takeOne", { name: "Apfelmus" }) })
        .click();
      await openQuickAdd(page, profile);
      await page.locator("#add-name").fill("Eis");
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      const pending = page.locator(".pending li");
      await page.waitForFunction(() => document.querySelectorAll(".pending li").length === 3);
      expect(await pending.first().textContent()).to.include(say("offline.waiting"));
      await page.keyboard.press("Escape");
      await expectAccessible(page, `offline home with waiting writes (${profile.name})`);

      // Meanwhile the Apfelmus is archived elsewhere: that write is refused and says why.
      const items = await anna.api<{ data: { id: string; name: string }[] }>("GET", `/households/${place.hid}/items`);
      const apfelmus = items.data.find((item) => item.name === "Apfelmus")!;
      await anna.api("DELETE", `/households/${place.hid}/items/${apfelmus.id}`);
      await context.setOffline(false);
      await page.waitForFunction(() => document.querySelectorAll(".pending li").length === 1);
      expect(await pending.first().textContent()).to.include(say("offline.refused", { reason: "" }).trim());
      const after = await anna.api<{ data: { name: string; quantity: number }[] }>(
        "GET",
        `/households/${place.hid}/items`,
      );
      expect(after.data.find((item) => item.name === "Himbeeren")?.quantity).to.equal(2);
      expect(after.data.some((item) => item.name === "Eis")).to.equal(true);
      await pending
        .first()
        .getByRole("button", { name: say("offline.dismiss") })
        .click();
      await page.locator(".pending").waitFor({ state: "detached" });
    } finally {
      await anna.context.setOffline(false);
      await anna.context.close();
    }
  });

  it("1. two tabs loading at once refresh the session once and both stay signed in", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      await household(anna, "The Smiths");
      const second = await anna.context.newPage();
      let refreshes = 0;
      let firstArrived!: () => void;
      let secondArrived!: () => void;
      let release!: () => void;
      const firstSeen = new Promise<void>((resolve) => (firstArrived = resolve));
      const secondSeen = new Promise<void>((resolve) => (secondArrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      await anna.context.route("**/api/v1/auth/web/refresh", async (route) => {
        refreshes += 1;
        if (refreshes === 1) {
          firstArrived();
          await released;
        } else secondArrived();
        await route.continue();
      });
      const loading = anna.page.goto(`${server.baseUrl}/`);
      await firstSeen;
      await second.goto(`${server.baseUrl}/`, { waitUntil: "commit" });
      // The second tab either waits for the first tab's lock (fixed) or sends its own refresh (the race).
      const waiting = second.evaluate(async () => {
        for (;;) {
          const state = await navigator.locks.query();
          if (state.pending?.some((lock) => lock.name === "hearth-refresh")) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      });
      await Promise.race([waiting, secondSeen]);
      release();
      await loading;
      await anna.page.locator(".household-name", { hasText: "The Smiths" }).waitFor();
      await second.locator(".household-name", { hasText: "The Smiths" }).waitFor();
      expect(refreshes, "refresh requests of two tabs loading at once").to.equal(1);
    } finally {
      await anna.context.close();
    }
  });
}

/** Says "yes, that is right" to a soft confirmation of an unlikely value, where the app asks one. */
async function confirmUnlikely(page: Page, profile: Profile): Promise<void> {
  const confirm = page.getByRole("button", { name: text(profile, "unlikely.confirm") });
  await confirm.click();
}

issue22("PGlite");
issue22("PostgreSQL");
