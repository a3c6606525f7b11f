/**
 * Reminders on the phone and the household's export and import, in Chromium on a phone, in
 * English and German. Headless Chromium has no push service (it would register with Google's,
 * which nothing here reaches), so PushManager.subscribe is replaced by a stand-in (an init
 * script) that answers a subscription of the local push service with real keys; everything
 * after it is real: the app registers it with Hearth, Hearth's scheduled check encrypts and
 * signs the reminder with web-push, the local push service checks and decrypts it, and the
 * decrypted message is delivered to the app's real service worker through the DevTools
 * protocol (ServiceWorker.deliverPushMessage, what a push service's message turns into), which
 * must show it as a notification.
 */
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { FAKE_PUSH_CA, FakePushService, standInPushManager } from "../support/fake-push-service.js";
import {
  type AppServer,
  addItem,
  household,
  member,
  PROFILES,
  type Profile,
  useAppServer,
  text,
} from "./support/family-app.js";
import { expectAccessible } from "./support/accessibility.js";
import { pushToServiceWorker, within } from "./support/service-worker-push.js";

describe("inventory web app: reminders on the phone, export and import (PGlite)", function () {
  this.timeout(180_000);
  // The first profile's push has not arrived a few times in CI (late in the session, never alone):
  // a second attempt, with new accounts, proves the path while that is chased (closing note).
  this.retries(1);
  let fake: FakePushService;

  before(async () => {
    fake = await FakePushService.start();
  });
  const server = useAppServer("PGlite", "inventory web app, reminders", {
    env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: "true", REMINDER_CHECK_INTERVAL: "1" },
    pushCa: FAKE_PUSH_CA,
  });
  after(async () => {
    await fake?.close();
  });

  for (const profile of PROFILES.filter((candidate) => candidate.phone)) {
    describe(profile.name, () => {
      remindersTests(server, () => fake, profile);
      dataTests(server, profile);
    });
  }
});

function remindersTests(getServer: () => AppServer, getFake: () => FakePushService, profile: Profile): void {
  const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
    text(profile, key, values);

  it("says when notifications are blocked, and offers nothing that cannot work", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    await household(anna, "Blocked", "Europe/Berlin");
    try {
      // As if the person had blocked notifications for the site in the browser's settings.
      const cdp = await anna.context.newCDPSession(anna.page);
      const { targetInfo } = (await cdp.send("Target.getTargetInfo")) as { targetInfo: { browserContextId: string } };
      await cdp.send("Browser.setPermission", {
        permission: { name: "notifications" },
        setting: "denied",
        origin: server.baseUrl,
        browserContextId: targetInfo.browserContextId,
      });
      await anna.page.goto(`${server.baseUrl}/reminders`);
      await anna.page.getByText(say("reminders.denied"), { exact: true }).waitFor();
      expect(await anna.page.getByRole("button", { name: say("reminders.turnOn") }).count()).to.equal(0);
    } finally {
      await anna.context.close();
    }
  });

  it("turns reminders on for this phone, and the service worker shows the pushed reminder", async () => {
    const server = getServer();
    const fake = getFake();
    const device = fake.subscribe();
    const anna = await member(server, profile, "Anna");
    // West of UTC, where the household's day starts after the UTC day: "last reminder" must name
    // the household's day, not the one before.
    const place = await household(anna, "Home", "Pacific/Pago_Pago");
    const soon = new Date(Date.now() + 2 * 86400000).toISOString().slice(0, 10);
    await addItem(anna, place, { name: profile.lang === "de" ? "Erbsen" : "Peas", expiresAt: `${soon}T00:00:00Z` });
    const origin = server.baseUrl;
    await anna.context.grantPermissions(["notifications"], { origin });
    await anna.context.addInitScript(standInPushManager(device));
    const page = anna.page;
    try {
      await page.goto(`${origin}/household`);
      await page.getByRole("link", { name: say("nav.reminders") }).click();
      await page.getByRole("heading", { level: 1, name: say("reminders.title") }).waitFor();
      await page.evaluate(() => navigator.serviceWorker.ready);
      // Counted before anything can make Hearth push: its check runs every second, so a push may
      // arrive before the page says "saved" (and with the default time, once the device is on).
      const before = fake.received.length + fake.refused.length;
      await page.getByRole("button", { name: say("reminders.turnOn") }).click();
      await page.getByText(say("reminders.deviceOn"), { exact: true }).waitFor();
      await expectAccessible(page, "reminders");
      // The reminder's time: midnight in Pago Pago has passed, whatever the hour.
      await page.getByLabel(say("reminders.time")).fill("00:00");
      await page.getByLabel(say("reminders.daysAhead")).fill("5");
      expect(await page.getByLabel(say("reminders.enabled")).isChecked()).to.equal(true);
      await page.getByRole("button", { name: say("action.save") }).click();
      await page.getByText(say("reminders.saved"), { exact: true }).waitFor();

      // Hearth's next check pushes it to the local push service, which decrypts it.
      await within(
        60_000,
        "the push service to receive the reminder",
        fake.requestsReach(before + 1),
        server.recentLog,
      );
      expect(fake.refused).to.deep.equal([]);
      const pushed = fake.received.at(-1)!;
      expect(pushed.device).to.equal(device.endpoint.split("/").pop());
      const message = pushed.message as { title: string; body: string; url: string; tag: string };
      expect(message.title).to.equal(
        profile.lang === "de" ? "1 Gefriergut bald verbrauchen" : "1 freezer item to use soon",
      );
      expect(message.url).to.include(`household=${place.hid}`);

      // The decrypted message reaches the app's real service worker as a push event.
      expect(await pushToServiceWorker(anna.context, page, origin, message)).to.deep.equal([
        { title: message.title, body: message.body, tag: message.tag, url: message.url },
      ]);

      // The notification's link opens the household's expiring list.
      await page.goto(`${origin}${message.url}`);
      await page
        .getByRole("link", { name: profile.lang === "de" ? /Erbsen/ : /Peas/ })
        .first()
        .waitFor();

      // The screen names the household's day the reminder went out on.
      const { lastSentOn } = await anna.api<{ lastSentOn: string }>("GET", `/households/${place.hid}/push-reminders`);
      const sentOn = new Intl.DateTimeFormat(profile.lang === "de" ? "de-DE" : "en-GB", {
        dateStyle: "medium",
        timeZone: "UTC",
      }).format(new Date(`${lastSentOn}T00:00:00Z`));
      await page.goto(`${origin}/reminders`);
      await page.getByText(say("reminders.lastSent", { date: sentOn }), { exact: true }).waitFor();

      // The server forgot the device (as after a 410): opening the screen registers it again.
      const forget = () =>
        fetch(`${origin}/api/v1/users/me/push-subscriptions`, {
          method: "DELETE",
          headers: { Authorization: `Bearer ${anna.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ endpoint: device.endpoint }),
        });
      expect((await forget()).status).to.equal(200);
      const registered = page.waitForResponse(
        (response) => response.url().endsWith("/users/me/push-subscriptions") && response.request().method() === "POST",
      );
      await page.goto(`${origin}/reminders`);
      expect((await registered).status()).to.equal(201);

      // Off on this phone: the server forgets the device.
      await page.getByRole("button", { name: say("reminders.turnOff") }).click();
      await page.getByText(say("reminders.deviceOff"), { exact: true }).waitFor();
      expect((await forget()).status).to.equal(404);
    } finally {
      await anna.context.close();
    }
  });
}

function dataTests(getServer: () => AppServer, profile: Profile): void {
  const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
    text(profile, key, values);

  it("downloads the household, previews an import of a changed file, then imports it", async () => {
    const server = getServer();
    const owner = await member(server, profile, "Olga");
    const place = await household(owner, "Export", "Europe/Berlin");
    await addItem(owner, place, { name: "Soup" });
    const page = owner.page;
    try {
      await page.goto(`${server.baseUrl}/household`);
      await page.getByRole("link", { name: say("nav.data") }).click();
      await page.getByRole("heading", { level: 1, name: say("data.title") }).waitFor();
      await expectAccessible(page, "export and import");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: say("data.downloadJson") }).click(),
      ]);
      expect(download.suggestedFilename()).to.equal(`household-${place.hid}.json`);
      const file = JSON.parse(await readFile((await download.path())!, "utf8")) as {
        items: Record<string, unknown>[];
        shoppingList: Record<string, unknown>[];
      };
      expect(file.items.map((item) => item.name)).to.deep.equal(["Soup"]);
      expect(file.shoppingList).to.deep.equal([]);
      const changed = {
        ...file,
        items: [
          ...file.items,
          { id: `berries${Date.now()}`, name: "Berries", quantity: 2, freezerName: "Garage", compartmentName: "Top" },
        ],
        shoppingList: [{ id: `milk${Date.now()}`, name: "Milk", quantity: 2, unit: "l" }],
      };
      const upload = path.join(tmpdir(), `hearth-import-${Date.now()}.json`);
      await writeFile(upload, JSON.stringify(changed));
      await page.getByLabel(say("data.file")).setInputFiles(upload);
      await page.getByRole("heading", { name: say("data.preview", { name: path.basename(upload) }) }).waitFor();
      for (const [key, count] of [
        ["data.freezersCreated", 1],
        ["data.compartmentsCreated", 1],
        ["data.itemsCreated", 1],
        ["data.itemsUnchanged", 1],
        ["data.shoppingEntriesAdded", 1],
      ] as const)
        await page.getByText(say(key, { count })).first().waitFor();
      await expectAccessible(page, "import preview");
      // Nothing written by the preview.
      const before = await owner.api<{ total: number }>("GET", `/households/${place.hid}/items`);
      expect(before.total).to.equal(1);
      await page.getByRole("button", { name: say("data.apply") }).click();
      await page.getByText(say("data.imported"), { exact: true }).waitFor();
      const after = await owner.api<{ total: number; data: { name: string }[] }>(
        "GET",
        `/households/${place.hid}/items`,
      );
      expect(after.data.map((item) => item.name).sort(), JSON.stringify(after)).to.deep.equal(["Berries", "Soup"]);
      const list = await owner.api<{ name: string; quantity: number; unit: string }[]>(
        "GET",
        `/households/${place.hid}/shopping-list`,
      );
      expect(list.map((entry) => [entry.name, entry.quantity, entry.unit])).to.deep.equal([["Milk", 2, "l"]]);

      // A broken file: the rows and why, nothing changed.
      await writeFile(upload, JSON.stringify({ items: [{ id: "x", quantity: -1 }] }));
      await page.getByLabel(say("data.file")).setInputFiles(upload);
      await page.getByText(say("data.problems"), { exact: true }).waitFor();
      expect((await owner.api<{ total: number }>("GET", `/households/${place.hid}/items`)).total).to.equal(2);
    } finally {
      await owner.context.close();
    }
  });
}
