import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { FakeOpenFoodFacts } from "../support/fake-open-food-facts.js";
import { expectFocus } from "./support/accessibility.js";
import { fakeCamera, writeBarcodeVideo } from "./support/barcode-video.js";
import {
  type AppServer,
  expectNoSeriousAxeViolations,
  household,
  keptForOffline,
  member,
  openQuickAdd,
  PROFILES,
  type Profile,
  useAppServer,
  text,
} from "./support/family-app.js";

/** The code the fake camera shows: a valid EAN-13. */
const CAMERA_CODE = "4006381333931";
/** A code only the fake Open Food Facts knows. */
const LOOKED_UP_CODE = "96385074";
/** Another valid EAN-13, for a code the household remembers before the test. */
const KNOWN_CODE = "5901234123457";

function barcodes(variant: "PGlite" | "PostgreSQL"): void {
  describe(`inventory web app: barcodes on ${variant}`, function () {
    this.timeout(120_000);
    let off: FakeOpenFoodFacts;
    let scratch = "";

    before(async () => {
      off = await FakeOpenFoodFacts.start();
      off.products.set(LOOKED_UP_CODE, { product_name: "Garden peas" });
      scratch = await mkdtemp(path.join(tmpdir(), "hearth-barcode-camera-"));
    });
    const server = useAppServer(variant, "inventory web app, barcodes", async () => ({
      chromiumArgs: fakeCamera(await writeBarcodeVideo(path.join(scratch, "barcode.y4m"), CAMERA_CODE)),
      env: { PRODUCT_LOOKUP_URL: off.url },
    }));
    after(async () => {
      await off?.close();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    for (const profile of PROFILES.filter((candidate) => candidate.phone)) {
      describe(profile.name, () => {
        scanTests(server, profile);
      });
    }
  });
}

function scanTests(getServer: () => AppServer, profile: Profile): void {
  const say = (key: Parameters<typeof text>[1], values: Record<string, string | number> = {}) =>
    text(profile, key, values);

  it("the first scan asks for the name, the second fills it in from the household's memory", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna", { permissions: ["camera"] });
    try {
      const place = await household(anna);
      const { page } = anna;
      await page.goto(server.baseUrl);
      await openQuickAdd(page, profile);
      await page.getByRole("button", { name: say("barcode.scan") }).click();
      // The camera sees the code; the household has not seen it, and neither has Open Food Facts.
      await page.locator("#barcode-note", { hasText: say("barcode.unknown", { code: CAMERA_CODE }) }).waitFor();
      expect(await page.locator("#add-barcode").inputValue()).to.equal(CAMERA_CODE);
      await expectFocus(page, "id", "add-name");
      expect(await page.locator("video").count(), "the camera is off once a code is read").to.equal(0);
      // Without a BarcodeDetector (Chromium on Linux) the WebAssembly reader did the reading, and
      // came from Hearth itself: nothing on the page was fetched from another origin.
      const loaded = await page.evaluate(() => ({
        native: "BarcodeDetector" in window,
        resources: performance.getEntriesByType("resource").map((entry) => entry.name),
      }));
      if (!loaded.native) {
        expect(loaded.resources.some((url) => /\/assets\/zxing_reader-[^/]+\.wasm$/.test(url))).to.equal(true);
      }
      expect(loaded.resources.filter((url) => !url.startsWith(server.baseUrl))).to.deep.equal([]);
      await expectNoSeriousAxeViolations(page, `quick add after a scan (${profile.name})`);
      await page.locator("#add-name").fill("Fish fingers");
      // The first scan also asks for the unit and the category, which the next scans fill in.
      await page.locator("#add-unit").selectOption("bag");
      const category = await page.locator("#add-category option").nth(1).getAttribute("value");
      await page.locator("#add-category").selectOption(category!);
      await page.getByRole("button", { name: say("add.submit") }).click();
      await page.locator("#announcer", { hasText: say("add.added", { name: "Fish fingers" }) }).waitFor();

      const items = await anna.api<{ data: { name: string; barcode: string | null }[] }>(
        "GET",
        `/households/${place.hid}/items`,
      );
      expect(items.data.map((item) => [item.name, item.barcode])).to.deep.equal([["Fish fingers", CAMERA_CODE]]);
      // The app saved the code for the next scan (PUT …/barcodes/:code) before announcing the add.
      const remembered = await anna.api<{ name: string; source: string }>(
        "GET",
        `/households/${place.hid}/barcodes/${CAMERA_CODE}`,
      );
      expect(remembered).to.include({ name: "Fish fingers", unit: "bag", categoryId: category, source: "household" });

      // The second scan of the same product fills the form in.
      await page.locator("#add-unit").selectOption("piece");
      await page.locator("#add-category").selectOption("");
      await page.getByRole("button", { name: say("barcode.scan") }).click();
      await page.locator("#barcode-note", { hasText: say("barcode.known", { code: CAMERA_CODE }) }).waitFor();
      expect(await page.locator("#add-name").inputValue()).to.equal("Fish fingers");
      expect(await page.locator("#add-unit").inputValue()).to.equal("bag");
      expect(await page.locator("#add-category").inputValue()).to.equal(category);
      await page.getByRole("button", { name: say("add.submit") }).click();
      await page.locator("#announcer", { hasText: say("add.added", { name: "Fish fingers" }) }).waitFor();
      const after = await anna.api<{ data: { id: string; barcode: string | null }[] }>(
        "GET",
        `/households/${place.hid}/items`,
      );
      expect(after.data.map((item) => item.barcode)).to.deep.equal([CAMERA_CODE, CAMERA_CODE]);

      // The item's page shows the code and takes a corrected one; a wrong check digit is refused.
      await page.goto(`${server.baseUrl}/items/${after.data[0]!.id}`);
      const field = page.locator("#edit-barcode");
      await field.waitFor();
      expect(await field.inputValue()).to.equal(CAMERA_CODE);
      await field.fill("4006381333932");
      await page.getByRole("button", { name: say("action.save") }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: say("rule.checkDigit") })
        .waitFor();
      await expectNoSeriousAxeViolations(page, `item page with a barcode (${profile.name})`);
    } finally {
      await anna.context.close();
    }
  });

  it("what one product's code filled in does not carry over to the next product", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna);
      const categories = await anna.api<{ id: string; key: string | null }[]>(
        "GET",
        `/households/${place.hid}/categories`,
      );
      const fish = categories.find((category) => category.key === "fish")?.id ?? categories[0]?.id ?? "";
      await anna.api("PUT", `/households/${place.hid}/barcodes/${CAMERA_CODE}`, {
        name: "Fish fingers",
        unit: "bag",
        categoryId: fish,
      });
      const { page } = anna;
      await page.goto(server.baseUrl);
      await openQuickAdd(page, profile);
      const lookUp = async (code: string, note: string) => {
        await page.locator("#add-barcode").fill(code);
        await page.locator("#add-barcode").press("Enter");
        await page.locator("#barcode-note", { hasText: note }).waitFor();
      };
      const form = async () => ({
        name: await page.locator("#add-name").inputValue(),
        unit: await page.locator("#add-unit").inputValue(),
        category: await page.locator("#add-category").inputValue(),
      });
      await lookUp(CAMERA_CODE, say("barcode.known", { code: CAMERA_CODE }));
      expect(await form()).to.deep.equal({ name: "Fish fingers", unit: "bag", category: fish });

      // Another code the household does not know: the fish fingers' name, bag and fish go.
      await lookUp("5901234123457", say("barcode.unknown", { code: "5901234123457" }));
      expect(await form()).to.deep.equal({ name: "", unit: "piece", category: "" });

      // Added as filled in; the next product starts as a fresh form does.
      await lookUp(CAMERA_CODE, say("barcode.known", { code: CAMERA_CODE }));
      await page.locator("#add-name").press("Enter");
      await page.locator("#list-title ~ ul.items .item-row", { hasText: "Fish fingers" }).waitFor();
      expect(await form()).to.deep.equal({ name: "", unit: "piece", category: "" });
    } finally {
      await anna.context.close();
    }
  });

  it("offline, a typed code is not called a new product, goes with the queued item and is remembered once sent", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      const place = await household(anna);
      // A code the household already calls something: a name typed blind offline does not replace it.
      await anna.api("PUT", `/households/${place.hid}/barcodes/${KNOWN_CODE}`, { name: "Ballpoint pens" });
      const { page } = anna;
      await page.goto(server.baseUrl);
      await keptForOffline(page, place);
      await anna.context.setOffline(true);
      await openQuickAdd(page, profile);
      for (const [code, name] of [
        [CAMERA_CODE, "Pens"],
        [KNOWN_CODE, "Biros"],
      ] as const) {
        await page.locator("#add-barcode").fill(code);
        await page.locator("#add-barcode").press("Enter");
        await page.locator("#barcode-note", { hasText: say("barcode.notLookedUp", { code }) }).waitFor();
        expect(await page.locator("#barcode-note").textContent()).not.to.include(say("barcode.unknown", { code }));
        await page.locator("#add-name").fill(name);
        await page.locator("#add-name").press("Enter");
        // Queued: the form is empty for the next product.
        await page.waitForFunction(() => (document.getElementById("add-barcode") as HTMLInputElement).value === "");
      }
      await page.getByText(say("offline.pendingTitle")).waitFor();
      await anna.context.setOffline(false);
      await page.getByText(say("offline.pendingTitle")).waitFor({ state: "detached" });
      const items = await anna.api<{ data: { name: string; barcode: string | null }[] }>(
        "GET",
        `/households/${place.hid}/items?sort=name&order=asc`,
      );
      expect(items.data.map((item) => [item.name, item.barcode])).to.deep.equal([
        ["Biros", KNOWN_CODE],
        ["Pens", CAMERA_CODE],
      ]);
      // Sent, the add saves what a new code is, as an add online does: the next scan knows it.
      const remembered = async (code: string) => {
        const found = await anna.api<{ name: string; source: string }>(
          "GET",
          `/households/${place.hid}/barcodes/${code}`,
        );
        return [found.name, found.source];
      };
      expect(await remembered(CAMERA_CODE)).to.deep.equal(["Pens", "household"]);
      expect(await remembered(KNOWN_CODE)).to.deep.equal(["Ballpoint pens", "household"]);
    } finally {
      await anna.context.setOffline(false);
      await anna.context.close();
    }
  });

  it("a typed code is looked up, a wrong one is refused, and a refused or missing camera says so", async () => {
    const server = getServer();
    const anna = await member(server, profile, "Anna");
    try {
      await household(anna);
      const { page } = anna;
      // The browser refuses the camera (as after "Block" in the permission prompt).
      await page.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
      });
      await page.goto(server.baseUrl);
      await openQuickAdd(page, profile);
      await page.getByRole("button", { name: say("barcode.scan") }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: say("barcode.denied") })
        .waitFor();

      // Typed by hand (keyboard only): Open Food Facts knows this one.
      await page.locator("#add-barcode").fill(LOOKED_UP_CODE);
      await page.locator("#add-barcode").press("Enter");
      await page.locator("#barcode-note", { hasText: say("barcode.lookedUp") }).waitFor();
      expect(await page.locator("#add-name").inputValue()).to.equal("Garden peas");

      await page.locator("#add-barcode").fill("4006381333932");
      await page.getByRole("button", { name: say("barcode.lookUp") }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: say("barcode.invalid", { code: "4006381333932" }) })
        .waitFor();
      await expectNoSeriousAxeViolations(page, `quick add with barcode messages (${profile.name})`);

      // A device without a camera.
      const second = await anna.context.newPage();
      await second.addInitScript(() => {
        Object.defineProperty(navigator, "mediaDevices", { value: undefined, configurable: true });
      });
      await second.goto(server.baseUrl);
      await openQuickAdd(second, profile);
      await second.getByRole("button", { name: say("barcode.scan") }).click();
      await second
        .getByRole("alert")
        .filter({ hasText: say("barcode.noCamera") })
        .waitFor();
    } finally {
      await anna.context.close();
    }
  });
}

barcodes("PGlite");
barcodes("PostgreSQL");
