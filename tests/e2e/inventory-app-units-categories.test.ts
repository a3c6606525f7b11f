import { expect } from "chai";
import {
  type AppServer,
  addItem,
  household,
  join,
  member,
  PROFILES,
  type Profile,
  useAppServer,
  text,
} from "./support/family-app.js";
import { expectAccessible } from "./support/accessibility.js";

/** The day in `timeZone` of the instant `at`, as a date input shows it. */
function dayIn(timeZone: string, at: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

describe("inventory web app: units, categories and frozen on (phone, PGlite)", function () {
  this.timeout(180_000);
  const server = useAppServer("PGlite", "inventory web app, units and categories");

  for (const profile of PROFILES.filter((candidate) => candidate.phone)) {
    describe(profile.name, () => {
      tests(server, profile);
    });
  }
});

function tests(getServer: () => AppServer, profile: Profile): void {
  const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
    text(profile, key, values);
  const decimal = (value: string) => (profile.lang === "de" ? value.replace(".", ",") : value);
  /** An English number ("1,250.5") as the profile's language writes it ("1.250,5" in German). */
  const grouped = (value: string) =>
    profile.lang === "de" ? value.replace(/[.,]/g, (separator) => (separator === "," ? "." : ",")) : value;

  it("adds 1.5 kg of meat frozen today (the family's day, Los Angeles), shows it with its unit and category, and groups the list", async () => {
    const server = getServer();
    const timeZone = "America/Los_Angeles";
    const anna = await member(server, profile, "Anna", { timezoneId: timeZone });
    try {
      const place = await household(anna, "The Smiths", timeZone);
      await addItem(anna, place, { name: "Peas" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.locator("#list-title ~ ul.items .item-row", { hasText: "Peas" }).waitFor();
      if (!(await page.locator("#add-name").isVisible()))
        await page.getByRole("button", { name: say("add.open") }).click();
      await page.locator("#add-name").fill("Goulash beef");
      await page.locator("#add-quantity").fill(decimal("1.5"));
      await page.locator("#add-unit").selectOption("kg");
      await page.locator("#add-category").selectOption({ label: say("category.meat") });
      expect(
        await page.locator("#add-stored").inputValue(),
        "frozen on defaults to today in the family's zone",
      ).to.equal(dayIn(timeZone, Date.now()));
      await expectAccessible(page, "the add form with unit, category and frozen on");
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      const row = page.locator("#list-title ~ ul.items .item-row", { hasText: "Goulash beef" });
      await row.waitFor();
      expect(await row.locator(".item-qty").textContent()).to.equal(`${decimal("1.5")} kg`);
      expect(await row.locator(".item-place").textContent()).to.include(say("category.meat"));
      expect(await row.locator(".item-frozen").textContent()).to.equal(say("frozen.today"));
      // Grouped: the meat heading, then the items without a category.
      await page.getByRole("heading", { name: say("category.meat"), level: 3 }).waitFor();
      await page.getByRole("heading", { name: say("category.none"), level: 3 }).waitFor();
      const stored = await anna.api<{ data: { name: string; unit: string; quantity: number; storedAt: string }[] }>(
        "GET",
        `/households/${place.hid}/items?search=Goulash`,
      );
      expect(stored.data[0]).to.include({ unit: "kg", quantity: 1.5 });
      expect(stored.data[0]?.storedAt.slice(0, 10)).to.equal(dayIn(timeZone, Date.now()));
      await expectAccessible(page, "the grouped list");
    } finally {
      await anna.context.close();
    }
  });

  it("reads a quantity with thousands separators as the app writes it (1.000 in German, 1,000 in English)", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      await addItem(anna, place, { name: "Peas" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      await page.locator("#list-title ~ ul.items .item-row", { hasText: "Peas" }).waitFor();
      if (!(await page.locator("#add-name").isVisible()))
        await page.getByRole("button", { name: say("add.open") }).click();
      await page.locator("#add-name").fill("Ice cubes");
      await page.locator("#add-quantity").fill(grouped("1,000"));
      await page.locator("#add-unit").selectOption("g");
      await page.getByRole("button", { name: say("add.submit"), exact: true }).click();
      // A thousand is questioned like every quantity of 1 000 or more; one gram would not be.
      const asked = page.locator(".notice.unlikely");
      const row = page.locator("#list-title ~ ul.items .item-row", { hasText: "Ice cubes" });
      await asked.or(row).first().waitFor();
      expect(await asked.isVisible(), `${grouped("1,000")} g was read as a small quantity`).to.equal(true);
      expect(await asked.textContent()).to.include(say("unlikely.quantity"));
      const posted = page.waitForRequest(
        (request) => request.method() === "POST" && new URL(request.url()).pathname.endsWith("/items"),
      );
      await page.getByRole("button", { name: say("unlikely.confirm") }).click();
      expect((await posted).postDataJSON()).to.include({ quantity: 1000, unit: "g" });
      await row.waitFor();
      expect(await row.locator(".item-qty").textContent()).to.equal(`${grouped("1,000")} g`);

      // The item's edit form and take-out read the same way.
      await page.getByRole("button", { name: say("action.close") }).click();
      await row.locator(".item-link").click();
      await page.locator("#edit-quantity").waitFor();
      await page.locator("#edit-quantity").fill(grouped("12,500"));
      await page.getByRole("button", { name: say("action.save"), exact: true }).click();
      await page.getByRole("button", { name: say("unlikely.confirm") }).click();
      await page
        .getByText(say("item.summary", { quantity: `${grouped("12,500")} g`, place: "Chest · Drawer 1" }))
        .waitFor();
      await page.locator("#consume-quantity").fill(grouped("1,250.5"));
      await page.getByRole("button", { name: say("item.consumeSubmit") }).click();
      await page
        .getByText(say("item.summary", { quantity: `${grouped("11,249.5")} g`, place: "Chest · Drawer 1" }))
        .waitFor();
      const stored = await anna.api<{ data: { quantity: number }[] }>(
        "GET",
        `/households/${place.hid}/items?search=${encodeURIComponent("Ice cubes")}`,
      );
      expect(stored.data[0]?.quantity).to.equal(11249.5);
    } finally {
      await anna.context.close();
    }
  });

  it("takes 250 g out of 1 kg on the item screen; the history says it in the reader's language", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const mince = await anna.api<{ id: string }>("POST", `/households/${place.hid}/items`, {
        name: "Mince",
        quantity: 1,
        unit: "kg",
        freezerId: place.fid,
        compartmentId: place.cid,
      });
      await anna.api("PATCH", `/households/${place.hid}/items/${mince.id}`, { unit: "g", quantity: 1000 });
      await anna.api("PATCH", `/households/${place.hid}/items/${mince.id}`, { unit: "kg", quantity: 1 });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/items/${mince.id}`);
      await page.locator("#consume-unit").waitFor();
      const amount = page.locator("#consume-quantity");
      const unit = page.locator("#consume-unit");
      expect(await amount.inputValue(), "a weight's take-out does not offer the whole 1 kg").to.equal("");
      expect(await unit.inputValue()).to.equal("kg");
      await unit.selectOption("g");
      await amount.fill("250");
      await page.getByRole("button", { name: say("item.consumeSubmit") }).click();
      await page
        .getByText(`${decimal("0.75")} kg`)
        .first()
        .waitFor();
      // The 250 is done with; the grams the user chose stay, so no number is left under kg.
      expect(await amount.inputValue(), "the amount after a take-out").to.equal("");
      expect(await unit.inputValue(), "the unit after a take-out").to.equal("g");
      await amount.fill("250");
      await page.getByRole("button", { name: say("item.consumeSubmit") }).click();
      await page
        .getByText(`${decimal("0.5")} kg`)
        .first()
        .waitFor();
      const unitSentence = say("history.unit", {
        who: "Anna",
        when: "",
        from: say("unit.name.g"),
        to: say("unit.name.kg"),
      });
      await page
        .getByText(unitSentence.slice(0, unitSentence.indexOf(", ")), { exact: false })
        .first()
        .waitFor();
      // Each quantity in the unit the item had then, though the entries keep numbers alone.
      const quantitySentence = (from: string, to: string) => {
        const sentence = say("history.quantity", { who: "Anna", when: "", from, to });
        return sentence.slice(0, sentence.indexOf(", ", sentence.indexOf(to)));
      };
      for (const [from, to] of [
        [`${decimal("0.75")} kg`, `${decimal("0.5")} kg`],
        [`${grouped("1,000")} g`, "1 kg"],
        ["1 kg", `${grouped("1,000")} g`],
      ] as const) {
        await page.locator("ol.history li", { hasText: quantitySentence(from, to) }).waitFor();
      }
      await expectAccessible(page, "the item screen with units");
    } finally {
      await anna.context.close();
    }
  });

  it("after −1 on 2 portions the row and the item's header say 1 portion, in the singular", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const goulash = await anna.api<{ id: string }>("POST", `/households/${place.hid}/items`, {
        name: "Goulash",
        quantity: 2,
        unit: "portion",
        freezerId: place.fid,
        compartmentId: place.cid,
      });
      await anna.api("POST", `/households/${place.hid}/items`, {
        name: "Ice bags",
        quantity: 1,
        unit: "bag",
        freezerId: place.fid,
        compartmentId: place.cid,
      });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/`);
      const row = page.locator("#list-title ~ ul.items .item-row", { hasText: "Goulash" });
      await row.waitFor();
      expect(await row.locator(".item-qty").textContent()).to.equal(`2 ${say("unit.portion")}`);
      const bags = page.locator("#list-title ~ ul.items .item-row", { hasText: "Ice bags" });
      expect(await bags.locator(".item-qty").textContent()).to.equal(`1 ${say("unit.bag.one")}`);
      await row.getByRole("button", { name: say("list.takeOne", { name: "Goulash" }) }).click();
      await page
        .getByText(say("list.tookOne", { name: "Goulash", left: "1" }))
        .first()
        .waitFor();
      await row.locator(".item-qty", { hasText: /^1 / }).waitFor();
      expect(await row.locator(".item-qty").textContent()).to.equal(`1 ${say("unit.portion.one")}`);
      await page.goto(`${server.baseUrl}/items/${goulash.id}`);
      await page
        .getByText(say("item.summary", { quantity: `1 ${say("unit.portion.one")}`, place: "Chest · Drawer 1" }))
        .waitFor();
    } finally {
      await anna.context.close();
    }
  });

  it("the owner renames and adds categories; a second member's phone shows them live and filters by them", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    const ben = await member(server, profile, "Ben");
    try {
      const place = await household(anna, "The Smiths");
      await join(anna, place, ben);
      const categories = await anna.api<{ id: string; key: string | null }[]>(
        "GET",
        `/households/${place.hid}/categories`,
      );
      const fish = categories.find((category) => category.key === "fish")!;
      await anna.api("POST", `/households/${place.hid}/items`, {
        name: "Trout",
        quantity: 2,
        unit: "portion",
        categoryId: fish.id,
        freezerId: place.fid,
        compartmentId: place.cid,
        storedAt: new Date(Date.now() - 21 * 86400000).toISOString(),
      });
      await addItem(anna, place, { name: "Bread" });

      await ben.page.goto(`${server.baseUrl}/`);
      const trout = ben.page.locator("#list-title ~ ul.items .item-row", { hasText: "Trout" });
      await trout.waitFor();
      expect(await trout.locator(".item-qty").textContent()).to.equal(`2 ${say("unit.portion")}`);
      expect(await trout.locator(".item-frozen").textContent()).to.equal(say("frozen.weeks", { count: 3 }));
      // Members see the categories but cannot change them.
      await ben.page.goto(`${server.baseUrl}/categories`);
      await ben.page.getByRole("heading", { name: say("categories.title"), level: 1 }).waitFor();
      await ben.page.getByText(say("category.fish"), { exact: true }).waitFor();
      expect(await ben.page.getByRole("button", { name: say("categories.add") }).count()).to.equal(0);

      // The owner renames Fish to "Seafood" on the categories screen.
      await anna.page.goto(`${server.baseUrl}/categories`);
      const field = anna.page.locator(`#category-${fish.id}`);
      await field.waitFor();
      await expectAccessible(anna.page, "the owner's categories screen");
      await field.fill("Seafood");
      await anna.page
        .locator(`[data-category="${fish.id}"]`)
        .getByRole("button", { name: say("action.rename") })
        .click();
      await anna.page
        .getByText(say("categories.renamed", { name: "Seafood" }))
        .first()
        .waitFor();
      // Ben's screen follows live (household events stream).
      await ben.page.getByText("Seafood", { exact: true }).waitFor();

      // Ben filters his list by the renamed category.
      await ben.page.goto(`${server.baseUrl}/`);
      await ben.page.locator("#list-title ~ ul.items .item-row", { hasText: "Bread" }).waitFor();
      const filters = ben.page.locator("details.more-filters");
      if (!(await filters.getAttribute("open"))) await filters.locator("summary").click();
      await ben.page.locator("#list-category").selectOption({ label: "Seafood" });
      await ben.page.locator("#list-title ~ ul.items .item-row", { hasText: "Bread" }).waitFor({ state: "detached" });
      expect(await ben.page.locator("#list-title ~ ul.items .item-row").count()).to.equal(1);
      await ben.page.locator("#list-category").selectOption("none");
      await ben.page.locator("#list-title ~ ul.items .item-row", { hasText: "Bread" }).waitFor();
      expect(await ben.page.locator("#list-title ~ ul.items .item-row", { hasText: "Trout" }).count()).to.equal(0);
    } finally {
      await anna.context.close();
      await ben.context.close();
    }
  });
}
