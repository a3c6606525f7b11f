// Regenerates the web app's screenshots in docs/images/ (phone and desktop, light and dark):
//
//   npm run docs:screenshots
//
// Starts Hearth in this process on free ports with a scratch PGlite database, builds the web
// app from web/, fills a household through the API, and photographs it in headless Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium).
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startHearth } from "../src/composition/hearth.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const imagesDir = path.join(root, "docs", "images");
const PASSWORD = "frozen peas 2026";

async function call<T>(
  baseUrl: string,
  method: string,
  route: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1${route}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const FREEZER_DOOR = `import { Automation, type Trigger, type TriggerContext } from "hearth";
export default class FreezerDoor extends Automation {
  readonly name = "freezer-door";
  readonly triggers: Trigger[] = [{ type: "mqtt", topic: "zigbee2mqtt/freezer-door" }];
  async execute(_context: TriggerContext): Promise<void> {
    await Promise.resolve();
    this.state.set("freezer.door", "closed");
  }
}
`;

function day(offset: number): string {
  return new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
}

/** A household with two members, a freezer with three drawers and a dozen items. */
async function seed(baseUrl: string): Promise<void> {
  type Session = { accessToken: string; user: { id: string } };
  const anna = await call<Session>(baseUrl, "POST", "/auth/register", null, {
    email: "anna@example.com",
    password: PASSWORD,
    name: "Anna",
  });
  const ben = await call<Session>(baseUrl, "POST", "/auth/register", null, {
    email: "ben@example.com",
    password: PASSWORD,
    name: "Ben",
  });
  const home = await call<{ id: string }>(baseUrl, "POST", "/households", anna.accessToken, { name: "The Smiths" });
  const invite = await call<{ code: string }>(baseUrl, "POST", `/households/${home.id}/invites`, anna.accessToken);
  await call(baseUrl, "POST", "/invites/accept", ben.accessToken, { code: invite.code });
  const chest = await call<{ id: string }>(baseUrl, "POST", `/households/${home.id}/freezers`, anna.accessToken, {
    name: "Chest freezer",
  });
  const drawers: string[] = [];
  for (const [position, name] of ["Drawer 1", "Drawer 2", "Drawer 3"].entries()) {
    const drawer = await call<{ id: string }>(
      baseUrl,
      "POST",
      `/households/${home.id}/freezers/${chest.id}/compartments`,
      anna.accessToken,
      {
        name,
        position,
      },
    );
    drawers.push(drawer.id);
  }
  const categories = await call<{ id: string; key: string | null }[]>(
    baseUrl,
    "GET",
    `/households/${home.id}/categories`,
    anna.accessToken,
  );
  const category = (key: string) => categories.find((candidate) => candidate.key === key)?.id ?? null;
  // name, quantity, unit, drawer, expires in days, frozen days ago, category key, who
  const items: [string, number, string, number, number | null, number, string, string][] = [
    ["Garden peas", 2, "bag", 0, 3, 40, "vegetables", "anna"],
    ["Fish fingers", 10, "piece", 1, 1, 12, "fish", "ben"],
    ["Bolognese sauce", 3, "portion", 2, 20, 21, "ready_meals", "anna"],
    ["Raspberries", 500, "g", 0, -1, 90, "fruit", "ben"],
    ["Chicken thighs", 1.2, "kg", 1, 45, 5, "meat", "anna"],
    ["Vanilla ice cream", 1, "l", 2, 120, 2, "ice_cream", "ben"],
    ["Sourdough bread", 2, "piece", 0, 30, 9, "baked_goods", "anna"],
    ["Spinach", 4, "portion", 1, null, 60, "vegetables", "ben"],
  ];
  let peas = "";
  for (const [name, quantity, unit, drawer, expires, frozen, key, who] of items) {
    const item = await call<{ id: string }>(
      baseUrl,
      "POST",
      `/households/${home.id}/items`,
      who === "anna" ? anna.accessToken : ben.accessToken,
      {
        name,
        quantity,
        freezerId: chest.id,
        compartmentId: drawers[drawer],
        unit,
        categoryId: category(key),
        storedAt: day(-frozen),
        ...(expires === null ? {} : { expiresAt: day(expires) }),
      },
    );
    if (name === "Garden peas") peas = item.id;
  }
  // Some history for the item screenshot: Ben moves the peas and takes one bag out.
  await call(baseUrl, "PATCH", `/households/${home.id}/items/${peas}`, ben.accessToken, { compartmentId: drawers[2] });
  await call(baseUrl, "PATCH", `/households/${home.id}/items/${peas}`, ben.accessToken, { quantity: 1 });
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(tmpdir(), "hearth-screenshots-"));
  const webDir = path.join(scratch, "web");
  // Under the checkout, so the automation's `import "hearth"` resolves; shown on the House pages.
  await mkdir(path.join(root, "tmp"), { recursive: true });
  const automations = await mkdtemp(path.join(root, "tmp", "screenshots-"));
  await writeFile(path.join(automations, "freezer-door.ts"), FREEZER_DOOR);
  execFileSync(process.execPath, [path.join(root, "scripts", "build-web.mjs"), "--out-dir", webDir], {
    stdio: "inherit",
  });
  const hearth = await startHearth({
    env: {
      DATA_DIR: path.join(scratch, "data"),
      AUTOMATIONS_DIR: automations,
      WEB_APP_DIR: webDir,
      HTTP_PORT: "0",
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      // The household is filled through the API by the same account the pictures then show.
      RATE_LIMIT_PER_MINUTE: "10000",
    },
    apiPort: 0,
    logStream: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const baseUrl = `http://localhost:${hearth.apiPort}`;
    await seed(baseUrl);
    const shots = [
      {
        file: "inventory-app-phone-light.png",
        viewport: { width: 390, height: 844 },
        colorScheme: "light" as const,
        isMobile: true,
      },
      {
        file: "inventory-app-phone-dark.png",
        viewport: { width: 390, height: 844 },
        colorScheme: "dark" as const,
        isMobile: true,
      },
      {
        file: "inventory-app-desktop-light.png",
        viewport: { width: 1280, height: 860 },
        colorScheme: "light" as const,
        isMobile: false,
      },
      {
        file: "inventory-app-desktop-dark.png",
        viewport: { width: 1280, height: 860 },
        colorScheme: "dark" as const,
        isMobile: false,
      },
    ];
    for (const shot of shots) {
      const context = await browser.newContext({
        viewport: shot.viewport,
        colorScheme: shot.colorScheme,
        isMobile: shot.isMobile,
        deviceScaleFactor: 1,
        locale: "en-GB",
        timezoneId: "UTC",
      });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      await page.getByLabel("E-mail").fill("anna@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("#list-title ~ ul.items li").nth(7).waitFor();
      await page.screenshot({ path: path.join(imagesDir, shot.file), fullPage: false });
      console.log(`wrote docs/images/${shot.file}`);
      if (shot.file === "inventory-app-phone-light.png") {
        await page.locator("#list-title ~ ul.items .item-link", { hasText: "Garden peas" }).click();
        await page.locator("ol.history li").nth(1).waitFor();
        await page.locator("#history-title").scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(imagesDir, "inventory-app-item-history.png"), fullPage: false });
        console.log("wrote docs/images/inventory-app-item-history.png");
      }
      // Anna registered first, so she is the installation's admin: the House section.
      if (shot.colorScheme === "light") {
        const name = shot.isMobile ? "inventory-app-house-phone.png" : "inventory-app-house-desktop.png";
        await page.goto(`${baseUrl}/house`);
        await page.locator("tr[data-automation='freezer-door']").waitFor();
        await page.locator("#house-live", { hasText: "Live" }).waitFor();
        await page.screenshot({ path: path.join(imagesDir, name), fullPage: false });
        console.log(`wrote docs/images/${name}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await hearth.stop();
    await rm(scratch, { recursive: true, force: true });
    await rm(automations, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
