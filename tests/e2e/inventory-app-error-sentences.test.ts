import { expect } from "chai";
import {
  type AppServer,
  addItem,
  household,
  member,
  PROFILES,
  type Profile,
  text,
  useAppServer,
} from "./support/family-app.js";

/**
 * The server names each refusal's code in the `Hearth-Error-Code` header; the app turns the
 * codes it knows into its own sentence in the family's language, instead of a general one.
 */
describe("inventory web app: the sentence for each refusal (phone, PGlite)", function () {
  this.timeout(180_000);
  const server = useAppServer("PGlite", "inventory web app, error sentences");

  for (const profile of PROFILES.filter((candidate) => candidate.phone)) {
    describe(profile.name, () => {
      tests(server, profile);
    });
  }
});

function tests(getServer: () => AppServer, profile: Profile): void {
  it("taking 1.5 portions out says portions are whole numbers, and archiving meanwhile says the item is archived", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const lasagne = await addItem(anna, place, { name: "Lasagne", quantity: 3 });
      await anna.api("PATCH", `/households/${place.hid}/items/${lasagne.id}`, { unit: "portion" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/items/${lasagne.id}`);
      await page.locator("#consume-quantity").fill(profile.lang === "de" ? "1,5" : "1.5");
      await page.getByRole("button", { name: text(profile, "item.consumeSubmit"), exact: true }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: text(profile, "error.quantityNotWhole") })
        .waitFor();

      // Archived by someone else while the page was open: taking out is refused with 409
      // ITEM_ARCHIVED, said as such rather than as a clash to reload for.
      await anna.api("DELETE", `/households/${place.hid}/items/${lasagne.id}`);
      await page.locator("#consume-quantity").fill("1");
      await page.getByRole("button", { name: text(profile, "item.consumeSubmit"), exact: true }).click();
      const alert = page.getByRole("alert").filter({ hasText: text(profile, "item.isArchived") });
      await alert.waitFor();
      expect(await page.getByRole("alert").allTextContents()).to.not.include(text(profile, "error.409"));
    } finally {
      await anna.context.close();
    }
  });
}
