/**
 * `npm start` with HOMEKIT_ENABLED=true and nothing else about HomeKit: the whole process
 * (startHearth) generates the setup code and identity into DATA_DIR, protects the engine
 * API with its generated token, and the code it shows after login pairs a real HAP client.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { HttpClient } from "hap-controller";
import { freePort } from "../support/network.js";
import { startTestHearth, type TestHearth } from "../support/test-hearth.js";

describe("HomeKit bridge under npm start (HOMEKIT_ENABLED=true alone)", function () {
  this.timeout(90_000);
  let running: TestHearth;
  let homeKitPort: number;

  before(async () => {
    homeKitPort = await freePort();
    running = await startTestHearth("homekit-npm-start", {
      HTTP_AUTH: "true",
      HOMEKIT_ENABLED: "true",
      HOMEKIT_PORT: String(homeKitPort),
      HOMEKIT_BIND: "127.0.0.1",
    });
  });

  after(async () => {
    await running?.release();
  });

  it("generates the setup code into DATA_DIR, shows it only with the generated token, and pairs with it", async () => {
    const dataDir = running.hearth.config.DATA_DIR;
    const identity = JSON.parse(await readFile(path.join(dataDir, "homekit", "identity.json"), "utf8")) as {
      setupCode: string;
      bridges: { username: string }[];
    };
    expect(identity.setupCode).to.match(/^\d{3}-\d{2}-\d{3}$/);
    const token = (await readFile(path.join(dataDir, "http-token"), "utf8")).trim();
    const url = `http://127.0.0.1:${running.hearth.httpPort}/api/homekit`;

    expect((await fetch(url)).status).to.equal(401);
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { setupCode: string; bridges: { port: number; username: string }[] };
    expect(body.setupCode).to.equal(identity.setupCode);
    expect(body.bridges[0]).to.include({ port: homeKitPort, username: identity.bridges[0]!.username });

    const client = new HttpClient(body.bridges[0]!.username, "127.0.0.1", homeKitPort);
    try {
      await client.pairSetup(body.setupCode);
      const accessories = await client.getAccessories();
      expect(accessories.accessories).to.have.length(1); // the bridge; no Zigbee devices here
    } finally {
      await client.close();
    }
  });
});
