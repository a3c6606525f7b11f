import { expect } from "chai";
import type { Page } from "playwright-core";
import {
  addItem,
  household,
  join,
  keptForOffline,
  member,
  PROFILES,
  useAppServer,
  text,
} from "./support/family-app.js";
import { expectAccessible, expectFocus } from "./support/accessibility.js";

/** The entries' names as the page shows them, top to bottom. */
function entryNames(page: Page): Promise<string[]> {
  return page.locator("li.shopping-entry .shopping-name").allTextContents();
}

/** Waits until the page shows exactly `names`, in that order (the live stream's doing, no sleep). */
async function waitForNames(page: Page, names: string[]): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      JSON.stringify(
        Array.from(document.querySelectorAll("li.shopping-entry .shopping-name"), (n) => n.textContent),
      ) === JSON.stringify(wanted),
    names,
    { timeout: 10_000 },
  );
}

describe("inventory web app: the shopping list (PGlite)", function () {
  this.timeout(180_000);
  const server = useAppServer("PGlite", "shopping list app");

  for (const profile of PROFILES.filter((candidate) => candidate.phone)) {
    describe(profile.name, () => {
      const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
        text(profile, key, values);

      it("reads 1.000 g (1,000 g in English) as a thousand grams, as the list then shows it", async () => {
        const anna = await member(server(), profile, "Anna");
        try {
          const place = await household(anna, "The Smiths");
          await anna.page.goto(`${server().baseUrl}/shopping-list`);
          await anna.page.getByText(say("shopping.empty")).waitFor();
          const thousand = profile.lang === "de" ? "1.000" : "1,000";
          await anna.page.getByLabel(say("shopping.field.name")).fill("Flour");
          await anna.page.getByLabel(say("field.quantity")).fill(thousand);
          await anna.page.getByLabel(say("shopping.field.unit")).selectOption("g");
          await anna.page.getByRole("button", { name: say("shopping.add"), exact: true }).click();
          await waitForNames(anna.page, ["Flour"]);
          expect(await anna.page.locator("li.shopping-entry .shopping-amount").textContent()).to.equal(
            say("shopping.unit.g", { n: thousand }),
          );
          const entries = await anna.api<{ quantity: number }[]>("GET", `/households/${place.hid}/shopping-list`);
          expect(entries[0]?.quantity).to.equal(1000);
        } finally {
          await anna.context.close();
        }
      });

      it("two members: adding, checking off, moving and removing show up live on the other's phone", async () => {
        const anna = await member(server(), profile, "Anna");
        const ben = await member(server(), profile, "Ben");
        try {
          const place = await household(anna, "The Smiths");
          await join(anna, place, ben);
          for (const person of [anna, ben]) {
            await person.page.goto(`${server().baseUrl}/`);
            await person.page.getByRole("link", { name: say("nav.shopping") }).click();
            await person.page.getByRole("heading", { name: say("shopping.title"), level: 1 }).waitFor();
            await person.page.getByText(say("shopping.empty")).waitFor();
          }
          await expectAccessible(anna.page, "the empty shopping list");

          // Anna adds two bags of peas with the form; Ben's list shows them.
          await anna.page.getByLabel(say("shopping.field.name")).fill("Peas");
          await anna.page.getByLabel(say("field.quantity")).fill("2");
          await anna.page.getByLabel(say("shopping.field.unit")).selectOption("bag");
          await anna.page.getByRole("button", { name: say("shopping.add"), exact: true }).click();
          await waitForNames(anna.page, ["Peas"]);
          await waitForNames(ben.page, ["Peas"]);
          expect(await ben.page.locator("li.shopping-entry .shopping-amount").textContent()).to.equal(
            say("shopping.unit.bag.other", { n: 2 }),
          );
          // The focus goes back to the name field for the next entry.
          await expectFocus(anna.page, "id", "shopping-name");
          await anna.page.getByLabel(say("shopping.field.name")).fill("Bread");
          await anna.page.getByLabel(say("shopping.field.name")).press("Enter");
          await waitForNames(ben.page, ["Peas", "Bread"]);

          // Ben moves the bread up with its button (no dragging); Anna sees the new order.
          await ben.page.getByRole("button", { name: say("shopping.moveUp", { name: "Bread" }) }).click();
          await waitForNames(ben.page, ["Bread", "Peas"]);
          await waitForNames(anna.page, ["Bread", "Peas"]);
          // The keyboard stays on the moved entry (its "up" is disabled at the top, so "down").
          await expectFocus(ben.page, "data-move", "down");

          // Anna checks the peas off; Ben's box is ticked.
          await anna.page.getByRole("checkbox", { name: /Peas/ }).check();
          await ben.page.waitForFunction(
            () =>
              Array.from(document.querySelectorAll<HTMLElement>("li.shopping-entry")).some(
                (row) => row.textContent?.includes("Peas") && row.classList.contains("checked"),
              ),
            undefined,
            { timeout: 10_000 },
          );
          expect(await ben.page.getByRole("checkbox", { name: /Peas/ }).isChecked()).to.equal(true);
          await expectAccessible(ben.page, "the shopping list with a checked entry");

          // Ben removes the bread; it leaves Anna's list too.
          await ben.page.getByRole("button", { name: say("shopping.remove", { name: "Bread" }) }).click();
          await waitForNames(anna.page, ["Peas"]);
          expect(await entryNames(ben.page)).to.deep.equal(["Peas"]);

          // Nothing scrolls sideways on the phone.
          const overflow = await anna.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
          expect(overflow, "horizontal scrolling at 390 px").to.equal(false);
        } finally {
          await anna.context.close();
          await ben.context.close();
        }
      });

      it("offline, a list this phone never kept says so instead of passing for an empty list", async () => {
        const anna = await member(server(), profile, "Anna");
        try {
          const place = await household(anna, "The Smiths");
          await anna.api("POST", `/households/${place.hid}/shopping-list`, { name: "Milk" });
          await anna.page.goto(`${server().baseUrl}/`);
          await keptForOffline(anna.page, place);
          await anna.context.setOffline(true);
          await anna.page.getByRole("link", { name: say("nav.shopping") }).click();
          await anna.page.getByText(say("shopping.notKept")).waitFor();
          expect(await anna.page.getByText(say("shopping.offline")).count()).to.equal(0);

          // Seen once online, it is there offline, as last seen.
          await anna.context.setOffline(false);
          await waitForNames(anna.page, ["Milk"]);
          await anna.context.setOffline(true);
          await anna.page.getByText(say("shopping.offline")).waitFor();
          expect(await entryNames(anna.page)).to.deep.equal(["Milk"]);
        } finally {
          await anna.context.setOffline(false);
          await anna.context.close();
        }
      });

      it("in a shop without signal: ticks, adds and removals wait on the phone, survive a reload and reach the other member when the connection is back", async () => {
        const anna = await member(server(), profile, "Anna");
        const ben = await member(server(), profile, "Ben");
        try {
          const place = await household(anna, "The Smiths");
          await join(anna, place, ben);
          const list = `/households/${place.hid}/shopping-list`;
          const ids: Record<string, string> = {};
          for (const name of ["Milk", "Bread", "Eggs"]) {
            ids[name] = (await anna.api<{ id: string }>("POST", list, { name })).id;
          }
          // Controlled by the service worker, so the app still opens after a reload offline.
          await anna.page.goto(`${server().baseUrl}/shopping-list`);
          await anna.page.evaluate(async () => {
            await navigator.serviceWorker.ready;
          });
          await anna.page.reload();
          await waitForNames(anna.page, ["Milk", "Bread", "Eggs"]);
          await ben.page.goto(`${server().baseUrl}/shopping-list`);
          await waitForNames(ben.page, ["Milk", "Bread", "Eggs"]);

          await anna.context.setOffline(true);
          await anna.page.getByText(say("shopping.offline")).waitFor();
          const pending = anna.page.locator(".pending li");
          await anna.page.getByRole("checkbox", { name: /Milk/ }).check();
          await anna.page.getByRole("checkbox", { name: /Bread/ }).check();
          await anna.page.getByLabel(say("shopping.field.name")).fill("Butter");
          await anna.page.getByLabel(say("field.quantity")).fill("2");
          await anna.page.getByRole("button", { name: say("shopping.add"), exact: true }).click();
          await waitForNames(anna.page, ["Milk", "Bread", "Eggs", "Butter"]);
          // Added here, it can be ticked and removed before the server knows it, not moved.
          const butter = anna.page.locator("li.shopping-entry", { hasText: "Butter" });
          await butter.getByText(say("offline.waiting")).waitFor();
          expect(
            await butter
              .locator("[data-move]")
              .evaluateAll((buttons) => buttons.map((b) => b.hasAttribute("disabled"))),
          ).to.deep.equal([true, true]);
          await anna.page.getByRole("checkbox", { name: /Butter/ }).check();
          await anna.page.getByRole("button", { name: say("shopping.remove", { name: "Eggs" }) }).click();
          await waitForNames(anna.page, ["Milk", "Bread", "Butter"]);
          // Ticking the bread twice more leaves one write for it, not three.
          await anna.page.getByRole("checkbox", { name: /Bread/ }).uncheck();
          await anna.page.getByRole("checkbox", { name: /Bread/ }).check();
          const waiting = [
            `${say("offline.pendingShoppingCheck", { name: "Milk" })} – ${say("offline.waiting")}`,
            `${say("offline.pendingShoppingCheck", { name: "Bread" })} – ${say("offline.waiting")}`,
            `${say("offline.pendingShoppingAdd", { name: "Butter", amount: say("shopping.unit.piece.other", { n: 2 }) })} – ${say("offline.waiting")}`,
            `${say("offline.pendingShoppingRemove", { name: "Eggs" })} – ${say("offline.waiting")}`,
          ];
          await anna.page.waitForFunction(
            (wanted) =>
              JSON.stringify(Array.from(document.querySelectorAll(".pending li"), (li) => li.textContent).sort()) ===
              JSON.stringify(wanted),
            [...waiting].sort(),
            { timeout: 10_000 },
          );
          await expectAccessible(anna.page, "the shopping list offline with waiting changes");

          // A reload offline keeps all of it.
          await anna.page.reload();
          await waitForNames(anna.page, ["Milk", "Bread", "Butter"]);
          for (const name of ["Milk", "Bread", "Butter"]) {
            expect(await anna.page.getByRole("checkbox", { name: new RegExp(name) }).isChecked(), name).to.equal(true);
          }
          // Nothing has reached the server or Ben; meanwhile Ben takes the bread off the list.
          const before = await ben.api<{ name: string; checked: boolean }[]>("GET", list);
          expect(before.map((entry) => [entry.name, entry.checked])).to.deep.equal([
            ["Milk", false],
            ["Bread", false],
            ["Eggs", false],
          ]);
          await ben.page.getByRole("button", { name: say("shopping.remove", { name: "Bread" }) }).click();
          await waitForNames(ben.page, ["Milk", "Eggs"]);

          await anna.context.setOffline(false);
          // The bread's tick is refused with the reason; the rest reached Ben's phone.
          await anna.page.waitForFunction(() => document.querySelectorAll(".pending li").length === 1);
          expect(await pending.first().textContent()).to.include(say("shopping.gone"));
          await waitForNames(ben.page, ["Milk", "Butter"]);
          await waitForNames(anna.page, ["Milk", "Butter"]);
          const after = await ben.api<{ name: string; quantity: number; checked: boolean }[]>("GET", list);
          expect(after.map((entry) => [entry.name, entry.quantity, entry.checked])).to.deep.equal([
            ["Milk", 1, true],
            ["Butter", 2, true],
          ]);
          expect(await ben.page.getByRole("checkbox", { name: /Butter/ }).isChecked()).to.equal(true);
          await pending
            .first()
            .getByRole("button", { name: say("offline.dismiss") })
            .click();
          await anna.page.locator(".pending").waitFor({ state: "detached" });
        } finally {
          await anna.context.setOffline(false);
          await anna.context.close();
          await ben.context.close();
        }
      });

      it("away from home, where the phone is online but Hearth cannot be reached, a tick waits and goes out once Hearth answers again", async () => {
        const anna = await member(server(), profile, "Anna");
        try {
          const place = await household(anna, "The Smiths");
          const list = `/households/${place.hid}/shopping-list`;
          await anna.api("POST", list, { name: "Milk" });
          await anna.page.goto(`${server().baseUrl}/shopping-list`);
          await waitForNames(anna.page, ["Milk"]);

          // Hearth on the home network only: every request fails to connect, the browser stays online.
          const unreachable = "**/api/v1/**";
          await anna.context.route(unreachable, (route) => route.abort("connectionrefused"));
          await anna.page.getByRole("checkbox", { name: /Milk/ }).check();
          await anna.page.getByText(say("shopping.offline")).waitFor();
          await anna.page.locator(".pending li", { hasText: say("offline.waiting") }).waitFor();
          expect(await anna.page.evaluate(() => navigator.onLine)).to.equal(true);

          // Home again: no browser event says so; the app finds out by itself. Hearth first answers
          // the tick with a 503: that refuses nothing, the tick keeps waiting.
          const ticks = `**${list}/*`;
          let failed = 0;
          await anna.context.route(ticks, (route) => {
            if (route.request().method() !== "PATCH") return route.fallback();
            failed++;
            return route.fulfill({ status: 503, json: { error: { code: "UNAVAILABLE", message: "Busy" } } });
          });
          const reloaded = anna.page.waitForRequest(
            (request) => failed > 0 && request.method() === "GET" && request.url().endsWith(list),
            { timeout: 45_000 },
          );
          await anna.context.unroute(unreachable);
          await reloaded;
          await anna.page.getByText(say("shopping.offline")).waitFor({ state: "detached" });
          expect(await anna.page.locator(".pending li").textContent()).to.include(say("offline.waiting"));
          // Answered again, the next start sends it.
          await anna.context.unroute(ticks);
          const sent = anna.page.waitForResponse(
            (response) => response.request().method() === "PATCH" && response.url().includes(list),
            { timeout: 45_000 },
          );
          await anna.page.reload();
          expect((await sent).status()).to.equal(200);
          await anna.page.locator(".pending").waitFor({ state: "detached" });
          await anna.page.getByText(say("shopping.offline")).waitFor({ state: "detached" });
          const entries = await anna.api<{ name: string; checked: boolean }[]>("GET", list);
          expect(entries.map((entry) => [entry.name, entry.checked])).to.deep.equal([["Milk", true]]);
          await anna.page.locator("li.shopping-entry.checked", { hasText: "Milk" }).waitFor();
        } finally {
          await anna.context.close();
        }
      });

      it("a used-up weight goes on the list with the amount it held, not as 1 g", async () => {
        const anna = await member(server(), profile, "Anna");
        try {
          const place = await household(anna, "The Smiths");
          const mince = await anna.api<{ id: string }>("POST", `/households/${place.hid}/items`, {
            name: "Mince",
            quantity: 500,
            unit: "g",
            freezerId: place.fid,
            compartmentId: place.cid,
          });
          await anna.page.goto(`${server().baseUrl}/items/${mince.id}`);
          await anna.page.getByRole("heading", { name: "Mince", level: 1 }).waitFor();
          await anna.page.getByLabel(say("item.consumeQuantity")).fill("500");
          await anna.page.getByRole("button", { name: say("item.consumeSubmit") }).click();
          const offer = anna.page.locator(".shopping-offer");
          await offer.getByRole("button", { name: say("shopping.offer.add") }).click();
          await offer.waitFor({ state: "detached" });
          await anna.page.getByRole("link", { name: say("nav.shopping") }).click();
          await waitForNames(anna.page, ["Mince"]);
          expect(await anna.page.locator("li.shopping-entry .shopping-amount").textContent()).to.equal(
            say("shopping.unit.g", { n: 500 }),
          );
          const list = await anna.api<{ quantity: number; unit: string }[]>(
            "GET",
            `/households/${place.hid}/shopping-list`,
          );
          expect(list.map((entry) => [entry.quantity, entry.unit])).to.deep.equal([[500, "g"]]);
        } finally {
          await anna.context.close();
        }
      });

      it("taking the last one out offers the shopping list; after shopping the checked entries go into the freezer in one step", async () => {
        const anna = await member(server(), profile, "Anna");
        try {
          const place = await household(anna, "The Smiths");
          await addItem(anna, place, { name: "Fish fingers", quantity: 1 });
          await anna.page.goto(`${server().baseUrl}/`);
          await anna.page.getByRole("button", { name: say("list.takeOne", { name: "Fish fingers" }) }).click();
          const offer = anna.page.locator(".shopping-offer");
          await offer.getByText(say("shopping.offer.question", { name: "Fish fingers" })).waitFor();
          await expectAccessible(anna.page, "the shopping list offer");
          await offer.getByRole("button", { name: say("shopping.offer.add") }).click();
          await offer.waitFor({ state: "detached" });
          const list = await anna.api<{ name: string }[]>("GET", `/households/${place.hid}/shopping-list`);
          expect(list.map((entry) => entry.name)).to.deep.equal(["Fish fingers"]);

          // "No, thanks" leaves the list alone.
          await addItem(anna, place, { name: "Ice cream", quantity: 1 });
          await anna.page.reload();
          await anna.page.getByRole("button", { name: say("list.takeOne", { name: "Ice cream" }) }).click();
          await offer.getByRole("button", { name: say("shopping.offer.dismiss") }).click();
          await offer.waitFor({ state: "detached" });

          await anna.page.getByRole("link", { name: say("nav.shopping") }).click();
          await waitForNames(anna.page, ["Fish fingers"]);
          await anna.page.getByRole("checkbox", { name: /Fish fingers/ }).check();
          const stock = anna.page.getByRole("button", { name: say("shopping.stock", { count: 1 }) });
          await stock.waitFor();
          await expectAccessible(anna.page, "putting the shopping away");
          await stock.click();
          await anna.page.getByText(say("shopping.empty")).waitFor();
          const items = await anna.api<{ data: { name: string; compartmentId: string }[] }>(
            "GET",
            `/households/${place.hid}/items`,
          );
          expect(items.data.map((item) => [item.name, item.compartmentId])).to.deep.equal([
            ["Fish fingers", place.cid],
          ]);
        } finally {
          await anna.context.close();
        }
      });
    });
  }
});
