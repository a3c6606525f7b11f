import { expect } from "chai";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../support/browser.js";
import { startTestHearth, type TestHearth } from "../support/test-hearth.js";
import { builtWebApp } from "./support/web-build.js";

// A LAN host name, as a family opens Hearth (http://hearth.local:3000). Browsers exempt
// localhost from HSTS and upgrade-insecure-requests, so only a real name shows a blank page.
const HOST = "hearth.test";

describe("pages under a home-network host name over plain HTTP", function () {
  this.timeout(60_000);
  let browser: Browser | null;
  let running: TestHearth | undefined;

  before(async function () {
    browser = await launchChromium("home network host name", [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
    if (!browser) this.skip();
    // The web build serves the family app on API_PORT and the console entry on HTTP_PORT.
    running = await startTestHearth("e2e home network", { WEB_UI_ENABLED: "true", WEB_APP_DIR: builtWebApp() });
  });
  after(async () => {
    await browser?.close();
    await running?.release();
  });

  async function open(url: string): Promise<{ page: Page; failures: string[] }> {
    const page = await browser!.newPage();
    const failures: string[] = [];
    page.on("requestfailed", (request) => failures.push(`${request.url()} ${request.failure()?.errorText ?? ""}`));
    const response = await page.goto(url);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()["strict-transport-security"]).to.equal(undefined);
    expect(response?.headers()["content-security-policy"] ?? "").not.to.include("upgrade-insecure-requests");
    return { page, failures };
  }

  it("renders Swagger UI at http://hearth.test:<port>/api/docs", async () => {
    const { page, failures } = await open(`http://${HOST}:${running!.hearth.apiPort}/api/docs`);
    await page.waitForSelector(".swagger-ui .info .title", { timeout: 30_000 });
    expect(await page.textContent(".swagger-ui .info .title")).to.include("Hearth freezer inventory API");
    expect(failures.filter((failure) => !failure.includes("favicon"))).to.deep.equal([]);
    expect(page.url()).to.match(/^http:\/\//);
  });

  it("renders the household web app at http://hearth.test:<port>/ (no service worker without HTTPS)", async () => {
    const { page, failures } = await open(`http://${HOST}:${running!.hearth.apiPort}/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor({ timeout: 30_000 });
    expect(failures).to.deep.equal([]);
    expect(page.url()).to.match(/^http:\/\//);
  });

  it("renders the engine web UI at http://hearth.test:<port>/status", async () => {
    const { page, failures } = await open(`http://${HOST}:${running!.hearth.httpPort}/status`);
    await page.waitForSelector("#stat-engine", { timeout: 30_000 });
    expect(await page.locator("#stat-engine").isVisible()).to.equal(true);
    expect(failures).to.deep.equal([]);
    expect(page.url()).to.match(/^http:\/\//);
  });
});
