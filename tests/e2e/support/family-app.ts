import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { type RunningHearth, startHearth } from "../../../src/composition/hearth.js";
import { de } from "../../../web/src/i18n/de.js";
import { en, type MessageKey } from "../../../web/src/i18n/en.js";
import { launchChromium } from "../../support/browser.js";
import { acquireBroker, acquireDatabase, type TestBroker, type TestDatabase } from "../../support/test-servers.js";

const root = path.resolve(import.meta.dirname, "../../..");
export const PASSWORD = "frozen peas 2026";

/** One way a family member meets the app: a phone or a desktop, in English or German. */
export interface Profile {
  name: string;
  lang: "en" | "de";
  phone: boolean;
}

/** The four: 390×844 phone and desktop, each in English and German. */
export const PROFILES: Profile[] = [
  { name: "phone, English", lang: "en", phone: true },
  { name: "phone, German", lang: "de", phone: true },
  { name: "desktop, English", lang: "en", phone: false },
  { name: "desktop, German", lang: "de", phone: false },
];

export function contextOptions(profile: Profile, extra: BrowserContextOptions = {}): BrowserContextOptions {
  const locale = profile.lang === "de" ? "de-DE" : "en-GB";
  return profile.phone
    ? { viewport: { width: 390, height: 844 }, locale, hasTouch: true, isMobile: true, ...extra }
    : { viewport: { width: 1280, height: 800 }, locale, ...extra };
}

/** The app's own sentence for `key` in the profile's language, placeholders filled. */
export function text(profile: Profile, key: MessageKey, values: Record<string, string | number> = {}): string {
  const catalogue: Record<MessageKey, string> = profile.lang === "de" ? de : en;
  return catalogue[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A running Hearth with the checkout's web app, on PGlite or PostgreSQL. */
export interface AppServer {
  browser: Browser;
  baseUrl: string;
  hearth: RunningHearth;
  /** Hearth's last warnings and errors (it logs at warn), for a failure message to show. */
  recentLog(): string;
}

/** What a suite may add to the app server: Chromium flags (a fake camera), settings, a push CA. */
export interface AppServerExtras {
  chromiumArgs?: string[];
  env?: Record<string, string>;
  pushCa?: string;
}

/** How many of Hearth's log lines an app server keeps for failure messages. */
const KEPT_LOG_LINES = 50;

/**
 * One app server for the enclosing `describe`: started before its tests (which are skipped, after
 * a loud notice, where startAppServer gives none), stopped after them. `extras` may be a function,
 * for a suite that prepares something first (a camera video, a push service). Returns the getter
 * the tests call.
 */
export function useAppServer(
  variant: "PGlite" | "PostgreSQL",
  suite: string,
  extras: AppServerExtras | (() => Promise<AppServerExtras>) = {},
): () => AppServer {
  let server: AppServer | null = null;
  let stop: () => Promise<void> = async () => undefined;
  before(async function () {
    // Building the app and starting Hearth on a shared machine can take minutes.
    this.timeout(300_000);
    const started = await startAppServer(variant, suite, typeof extras === "function" ? await extras() : extras);
    stop = started.stop;
    if (!started.server) this.skip();
    server = started.server;
  });
  after(async () => {
    await stop();
  });
  return () => {
    if (!server) throw new Error(`${suite}: the app server did not start`);
    return server;
  };
}

/**
 * Starts Chromium and Hearth (the web app built from the checkout) for one database variant;
 * `null` (after a loud notice) when Chromium or, for PostgreSQL, TEST_DATABASE_URL is missing.
 */
export async function startAppServer(
  variant: "PGlite" | "PostgreSQL",
  suite: string,
  extra: AppServerExtras = {},
): Promise<{ server: AppServer | null; stop: () => Promise<void> }> {
  let database: TestDatabase | null = null;
  let broker: TestBroker | null = null;
  let scratch = "";
  let hearth: RunningHearth | null = null;
  const log: string[] = [];
  const browser = await launchChromium(`${suite} (${variant})`, extra.chromiumArgs);
  const stop = async () => {
    await browser?.close();
    await hearth?.stop();
    await database?.release();
    await broker?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  };
  if (!browser) return { server: null, stop };
  if (variant === "PostgreSQL") {
    database = await acquireDatabase(suite);
    if (database.kind !== "postgres") {
      console.log(`\n      !!! ${suite} on PostgreSQL SKIPPED: no TEST_DATABASE_URL and no Docker engine\n`);
      return { server: null, stop };
    }
  }
  broker = await acquireBroker(suite);
  scratch = await mkdtemp(path.join(tmpdir(), "hearth-family-app-"));
  const webDir = path.join(scratch, "web");
  execFileSync(process.execPath, [path.join(root, "scripts/build-web.mjs"), "--out-dir", webDir], { stdio: "pipe" });
  hearth = await startHearth({
    env: {
      DATA_DIR: path.join(scratch, "data"),
      AUTOMATIONS_DIR: path.join(scratch, "automations"),
      MQTT_HOST: broker.host,
      MQTT_PORT: String(broker.port),
      LOG_LEVEL: "warn",
      HTTP_AUTH: "false",
      WEB_APP_DIR: webDir,
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      RATE_LIMIT_PER_MINUTE: "100000",
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
      ...extra.env,
    },
    ...(extra.pushCa ? { pushCa: extra.pushCa } : {}),
    apiPort: 0,
    httpPort: 0,
    logStream: new Writable({
      write: (chunk, _encoding, done) => {
        log.push(...String(chunk).split("\n").filter(Boolean));
        log.splice(0, Math.max(0, log.length - KEPT_LOG_LINES));
        done();
      },
    }),
  });
  const server = { browser, baseUrl: `http://localhost:${hearth.apiPort}`, hearth, recentLog: () => log.join("\n") };
  return { server, stop };
}

let counter = 0;

/** A signed-in member in their own browser context, with a bearer token for setting things up. */
export interface Member {
  context: BrowserContext;
  page: Page;
  token: string;
  userId: string;
  name: string;
  email: string;
  /** Calls the API as this member; throws on a non-2xx answer. */
  api<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
}

/** Registers a user through the web routes of the context, so its cookie signs the app in. */
export async function member(
  server: AppServer,
  profile: Profile,
  name: string,
  extra: BrowserContextOptions = {},
): Promise<Member> {
  const context = await server.browser.newContext(contextOptions(profile, extra));
  const email = `${name.toLowerCase()}-${Date.now()}-${++counter}@example.com`;
  const response = await context.request.post(`${server.baseUrl}/api/v1/auth/web/register`, {
    headers: { "X-Hearth-Client": "web" },
    data: { email, password: PASSWORD, name },
  });
  if (!response.ok()) throw new Error(`register ${name}: ${response.status()} ${await response.text()}`);
  const session = (await response.json()) as { accessToken: string; user: { id: string } };
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${server.baseUrl}/api/v1${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${session.accessToken}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!answer.ok) throw new Error(`${method} ${route}: ${answer.status} ${await answer.text()}`);
    return (answer.status === 204 ? undefined : await answer.json()) as T;
  };
  return {
    context,
    page: await context.newPage(),
    token: session.accessToken,
    userId: session.user.id,
    name,
    email,
    api: call,
  };
}

/** A household with one freezer ("Chest") and one compartment ("Drawer 1"). */
export interface Household {
  hid: string;
  fid: string;
  cid: string;
}

/** `timeZone` is sent where the server keeps one (issue 22's server side), else left out. */
export async function household(owner: Member, name = `${owner.name}'s`, timeZone?: string): Promise<Household> {
  const created = await owner
    .api<{ id: string }>("POST", "/households", { name, ...(timeZone ? { timeZone } : {}) })
    .catch(() => owner.api<{ id: string }>("POST", "/households", { name }));
  const freezer = await owner.api<{ id: string }>("POST", `/households/${created.id}/freezers`, { name: "Chest" });
  const compartment = await owner.api<{ id: string }>(
    "POST",
    `/households/${created.id}/freezers/${freezer.id}/compartments`,
    { name: "Drawer 1", position: 0 },
  );
  return { hid: created.id, fid: freezer.id, cid: compartment.id };
}

export async function addItem(
  owner: Member,
  place: Household,
  fields: { name: string; quantity?: number; expiresAt?: string; notes?: string },
): Promise<{ id: string; updatedAt: string }> {
  return owner.api("POST", `/households/${place.hid}/items`, {
    quantity: 1,
    freezerId: place.fid,
    compartmentId: place.cid,
    ...fields,
  });
}

/** Opens the quick-add form, as a person does, unless it is open already (a wide screen shows it). */
export async function openQuickAdd(page: Page, profile: Profile): Promise<void> {
  if (await page.locator("#add-name").isVisible()) return;
  await page.getByRole("button", { name: text(profile, "add.open") }).click();
  await page.locator("#add-name").waitFor();
}

/**
 * Waits until the app has kept `place`'s freezers on this device (its offline copy): they load
 * after the household, so a test that goes offline as soon as the list shows could otherwise
 * leave the app without a freezer to add into, which no person would do on purpose.
 */
export async function keptForOffline(page: Page, place: Household): Promise<void> {
  await page.waitForFunction(
    (hid) => (JSON.parse(localStorage.getItem(`hearth.freezers.${hid}`) ?? "[]") as unknown[]).length > 0,
    place.hid,
  );
}

/** Makes `guest` a member of `owner`'s household through an invite. */
export async function join(owner: Member, place: Household, guest: Member): Promise<void> {
  const invite = await owner.api<{ code: string }>("POST", `/households/${place.hid}/invites`);
  await guest.api("POST", "/invites/accept", { code: invite.code });
}

/** axe-core's serious and critical violations on the page as it is now (none allowed). */
export async function expectNoSeriousAxeViolations(page: Page, screen: string): Promise<void> {
  const { readFile } = await import("node:fs/promises");
  const { createRequire } = await import("node:module");
  const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // evaluate() is not subject to the page's CSP, which forbids injected inline scripts.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
  if (violations.length > 0) throw new Error(`axe on ${screen}: ${violations.join("; ")}`);
}
