import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { homeKitName } from "../../../src/adapters/services/homekit/bridged-accessory.js";
import {
  generateSetupCode,
  generateUsername,
  HomeKitIdentity,
  maskSetupCode,
  normalizeSetupCode,
} from "../../../src/adapters/services/homekit/homekit-identity.js";
import { setupQrDataUri } from "../../../src/adapters/services/homekit/setup-qr.js";

describe("HomeKit identity", () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hearth-homekit-identity-"));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("generates a setup code and a username once, stores them (mode 0600) and reads them back", async () => {
    const { identity: first } = await HomeKitIdentity.load(dir);
    expect(first.created).to.equal(true);
    expect(first.setupCode).to.match(/^\d{3}-\d{2}-\d{3}$/);
    expect(first.usernameFor(0)).to.match(/^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/);
    expect((await stat(path.join(dir, "identity.json"))).mode & 0o777).to.equal(0o600);

    const { identity: second } = await HomeKitIdentity.load(dir);
    expect(second.created).to.equal(false);
    expect(second.setupCode).to.equal(first.setupCode);
    expect(second.usernameFor(0)).to.equal(first.usernameFor(0));
  });

  it("uses a configured setup code without writing it", async () => {
    const { identity } = await HomeKitIdentity.load(dir, "031-45-154");
    expect(identity.setupCode).to.equal("031-45-154");
    expect(identity.setupCodeConfigured).to.equal(true);
    expect(await readFile(path.join(dir, "identity.json"), "utf8")).to.not.contain("031-45-154");
  });

  it("adds a username per extra bridge and keeps assignments", async () => {
    const { identity } = await HomeKitIdentity.load(dir);
    const second = identity.usernameFor(1);
    expect(second).to.not.equal(identity.usernameFor(0));
    await identity.saveAssignments({ "0xabc": 1 });
    const { identity: reloaded } = await HomeKitIdentity.load(dir);
    expect(reloaded.usernameFor(1)).to.equal(second);
    expect(reloaded.assignments).to.deep.equal({ "0xabc": 1 });
  });

  it("moves a malformed file aside, says so, and starts a new identity", async () => {
    await writeFile(path.join(dir, "identity.json"), '{"version":1,"setupCode":"12"}');
    const { identity, problem } = await HomeKitIdentity.load(dir);
    expect(problem).to.match(/malformed.*moved it aside/);
    expect(identity.created).to.equal(true);
    expect((await readdir(dir)).some((name) => name.startsWith("identity.json.bad-"))).to.equal(true);
  });

  it("validates setup codes as HomeKit does", () => {
    expect(normalizeSetupCode("03145154")).to.deep.equal({ ok: true, code: "031-45-154" });
    expect(normalizeSetupCode(" 031-45-154 ")).to.deep.equal({ ok: true, code: "031-45-154" });
    for (const trivial of ["000-00-000", "111-11-111", "123-45-678", "1234-5678", "87654321"]) {
      expect(normalizeSetupCode(trivial).ok, trivial).to.equal(false);
    }
    expect(normalizeSetupCode("12-34")).to.deep.include({ ok: false });
    expect(normalizeSetupCode("abc-de-fgh")).to.deep.include({ ok: false });
  });

  it("generates valid codes and locally administered unicast usernames", () => {
    for (let round = 0; round < 50; round++) {
      expect(normalizeSetupCode(generateSetupCode()).ok).to.equal(true);
      const first = Number.parseInt(generateUsername().slice(0, 2), 16);
      expect(first & 0b11).to.equal(0b10);
    }
  });

  it("masks all but the last three digits of a setup code", () => {
    expect(maskSetupCode("031-45-154")).to.equal("***-**-154");
  });

  it("makes Zigbee2MQTT friendly names acceptable to the Home app", () => {
    expect(homeKitName("kitchen/ceiling_light")).to.equal("kitchen ceiling light");
    expect(homeKitName("_lamp 2_")).to.equal("lamp 2");
    expect(homeKitName("Mum's lamp")).to.equal("Mum's lamp");
    expect(homeKitName("///")).to.equal("Device");
  });

  it("draws the setup URI as an SVG QR code data URI", () => {
    const uri = setupQrDataUri("X-HM://0023ISYWYABCD");
    expect(uri).to.match(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(uri.split(",")[1]!, "base64").toString("utf8");
    expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    expect(svg).to.contain('<path d="M');
  });
});
