import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { Browser } from "playwright-core";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { loadConfig } from "../../src/composition/config.js";
import { buildMemoryInventoryApi } from "../support/memory-inventory-api.js";
import { launchChromium } from "../support/browser.js";

describe("inventory API docs in a browser (Swagger UI)", () => {
  let server: Server;
  let browser: Browser;
  let baseUrl: string;

  before(async function () {
    const launched = await launchChromium("Swagger UI");
    if (!launched) this.skip();
    browser = launched;
    const { app } = await buildMemoryInventoryApi({
      config: loadConfig({ JWT_SECRET: "e2e-docs-secret-0123456789abcdefghij" }),
      logger: new MemoryLogger(),
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await browser?.close();
    // The server only exists when Chromium was found; without it before() skipped early.
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  it("renders the generated document from local assets, within the security headers", async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on("requestfailed", (request) => failures.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") failures.push(message.text());
    });
    await page.goto(`${baseUrl}/api/docs`);
    await page.waitForSelector(".swagger-ui .info .title", { timeout: 30_000 });
    expect(await page.textContent(".swagger-ui .info .title")).to.include("Hearth freezer inventory API");
    await page.waitForSelector(`[data-path="/households/{hid}/freezers/{fid}/compartments"]`, { timeout: 30_000 });
    expect(failures.filter((url) => !url.includes("favicon"))).to.deep.equal([]);
  });
});
