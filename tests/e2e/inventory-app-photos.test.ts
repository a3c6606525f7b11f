import { expect } from "chai";
import { phonePhoto } from "../support/test-photos.js";
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
import { expectAccessible, expectFocus } from "./support/accessibility.js";

/** The phone profiles: photos are taken on phones. */
const PHONES = PROFILES.filter((profile) => profile.phone);

describe("inventory web app: item photos (PGlite)", function () {
  this.timeout(180_000);
  const server = useAppServer("PGlite", "inventory web app, item photos");

  for (const profile of PHONES) {
    describe(profile.name, () => {
      photoTests(server, profile);
    });
  }
});

function photoTests(getServer: () => AppServer, profile: Profile): void {
  const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
    text(profile, key, values);

  it("Anna photographs an item; Ben's list shows the thumbnail live; failures say why; removing works", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    const ben = await member(server, profile, "Ben");
    try {
      const place = await household(anna, "The Smiths");
      await join(anna, place, ben);
      const lasagne = await addItem(anna, place, { name: "Lasagne" });
      await ben.page.goto(`${server.baseUrl}/`);
      const benRow = ben.page.locator("#list-title ~ ul.items .item-row", { hasText: "Lasagne" });
      await benRow.waitFor();

      const { page } = anna;
      await page.goto(`${server.baseUrl}/items/${lasagne.id}`);
      await page.getByRole("heading", { name: "Lasagne", level: 1 }).waitFor();
      await page.getByText(say("photo.none")).waitFor();
      const file = page.locator("#photo-file");
      // The file input opens the camera on phones.
      expect(await file.getAttribute("accept")).to.equal("image/*");
      expect(await file.getAttribute("capture")).to.equal("environment");
      await page.getByRole("button", { name: say("photo.add") }).waitFor();
      await file.setInputFiles({ name: "lasagne.jpg", mimeType: "image/jpeg", buffer: await phonePhoto(640, 320) });
      const shown = page.getByRole("img", { name: say("photo.alt", { name: "Lasagne" }) });
      await shown.waitFor();
      // Taken sideways (EXIF orientation 6), shown upright: taller than wide.
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>(".item-photo img");
        return image?.complete && image.naturalWidth > 0;
      });
      const size = await page.evaluate(() => {
        const image = document.querySelector<HTMLImageElement>(".item-photo img");
        return { width: image?.naturalWidth ?? 0, height: image?.naturalHeight ?? 0 };
      });
      expect(size).to.deep.equal({ width: 320, height: 640 });
      await page.getByRole("button", { name: say("photo.change") }).waitFor();
      await page
        .getByText(say("history.photoAdded", { who: "Anna", when: "" }).replace(/,\s*$/, ""))
        .first()
        .waitFor();
      await expectAccessible(page, `item page with a photo (${profile.name})`);

      // Ben's open list shows the thumbnail without a reload (the household's live events).
      await benRow.getByRole("img", { name: say("photo.thumbAlt", { name: "Lasagne" }) }).waitFor();
      await expectAccessible(ben.page, `list with a thumbnail (${profile.name})`);

      // Not a photo: refused with the app's sentence, the photo stays.
      await file.setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a photo") });
      await page
        .getByRole("alert")
        .filter({ hasText: say("photo.unsupported") })
        .waitFor();
      // Too large for the server (10 MB by default): refused while it is sent.
      await file.setInputFiles({
        name: "huge.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.alloc(11 * 1024 * 1024, 1),
      });
      await page
        .getByRole("alert")
        .filter({ hasText: say("photo.tooLarge") })
        .waitFor();
      expect(await shown.isVisible()).to.equal(true);
      const item = await anna.api<{ photo: { updatedAt: string } | null }>(
        "GET",
        `/households/${place.hid}/items/${lasagne.id}`,
      );
      expect(item.photo).to.be.an("object");

      // Offline: a clear message, nothing queued.
      await anna.context.setOffline(true);
      await page.getByText(say("photo.offline")).waitFor();
      expect(await page.getByRole("button", { name: say("photo.change") }).isDisabled()).to.equal(true);
      await anna.context.setOffline(false);
      await page
        .getByRole("button", { name: say("photo.change") })
        .and(page.locator(":enabled"))
        .waitFor();

      // Removing asks first (a removed photo cannot be brought back); the photo stays until then.
      await page.getByRole("button", { name: say("photo.remove") }).click();
      await page.getByText(say("photo.removeQuestion", { name: "Lasagne" })).waitFor();
      expect(await shown.isVisible()).to.equal(true);
      await page.getByRole("button", { name: say("photo.removeConfirm") }).click();
      await page.getByText(say("photo.none")).waitFor();
      await expectFocus(page, "id", "photo-pick");
      await benRow.locator(".item-thumb").waitFor({ state: "detached" });
    } finally {
      await anna.context.setOffline(false);
      await anna.context.close();
      await ben.context.close();
    }
  });

  it("a photo taken halfway through an edit keeps what was typed, and the save then goes through", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna, "The Smiths");
      const lasagne = await addItem(anna, place, { name: "Lasagne" });
      const { page } = anna;
      await page.goto(`${server.baseUrl}/items/${lasagne.id}`);
      await page.getByRole("heading", { name: "Lasagne", level: 1 }).waitFor();
      await page.locator("#edit-name").fill("Lasagne al forno");
      await page.locator("#edit-notes").fill("From Sunday");
      await page
        .locator("#photo-file")
        .setInputFiles({ name: "lasagne.jpg", mimeType: "image/jpeg", buffer: await phonePhoto(640, 320) });
      await page.getByRole("button", { name: say("photo.change") }).waitFor();
      // The photo's own entry in the history: the reload after the upload has come back.
      await page
        .getByText(say("history.photoAdded", { who: "Anna", when: "" }).replace(/,\s*$/, ""))
        .first()
        .waitFor();
      expect(await page.locator("#edit-name").inputValue()).to.equal("Lasagne al forno");
      expect(await page.locator("#edit-notes").inputValue()).to.equal("From Sunday");

      // Her own photo is not someone else's change: the save is no conflict.
      await page.locator("#edit-name").press("Enter");
      await page.getByRole("heading", { name: "Lasagne al forno", level: 1 }).waitFor();
      expect(await page.locator(".conflict").count()).to.equal(0);
      const item = await anna.api<{ name: string; notes: string | null; photo: unknown }>(
        "GET",
        `/households/${place.hid}/items/${lasagne.id}`,
      );
      expect([item.name, item.notes]).to.deep.equal(["Lasagne al forno", "From Sunday"]);
      expect(item.photo).to.be.an("object");
    } finally {
      await anna.context.close();
    }
  });
}
