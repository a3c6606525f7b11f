import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import webpush from "web-push";
import { generateVapidKeys, vapidKeyProblem } from "../../../../src/adapters/security/vapid-key-check.js";
import { loadOrCreateVapidKeys, VAPID_KEY_FILE } from "../../../../src/adapters/security/vapid-keys.js";
import { ConfigError, loadConfig } from "../../../../src/composition/config.js";

describe("VAPID keys", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "hearth-vapid-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("generates a valid pair into DATA_DIR (mode 0600) once and reads it on later starts", async () => {
    const first = await loadOrCreateVapidKeys({ dataDir });
    expect(first.source).to.equal("generated");
    expect(vapidKeyProblem(first)).to.equal(null);
    const file = path.join(dataDir, VAPID_KEY_FILE);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    const second = await loadOrCreateVapidKeys({ dataDir });
    expect(second).to.deep.include({ source: "file", publicKey: first.publicKey, privateKey: first.privateKey });
  });

  it("makes pairs web-push signs with: 65-byte public points, 32-byte private keys even with leading zeros", () => {
    // About one key in 128 has a scalar starting with a zero byte: 400 pairs meet a few of them.
    for (let run = 0; run < 400; run++) {
      const keys = generateVapidKeys();
      expect(vapidKeyProblem(keys), `pair ${run}`).to.equal(null);
    }
    const keys = generateVapidKeys();
    const headers = webpush.getVapidHeaders(
      "https://push.example.com",
      "mailto:owner@example.com",
      keys.publicKey,
      keys.privateKey,
      "aes128gcm",
    );
    expect(String(headers.Authorization)).to.match(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${keys.publicKey}$`),
    );
  });

  it("keeps a pair for the process only, writing no file, when DATA_DIR is :memory:", async () => {
    const cwd = process.cwd();
    process.chdir(dataDir);
    try {
      const keys = await loadOrCreateVapidKeys({ dataDir: ":memory:" });
      expect(keys.source).to.equal("generated");
      expect(keys.file).to.equal(undefined);
      expect(vapidKeyProblem(keys)).to.equal(null);
      expect(await readdir(dataDir)).to.deep.equal([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it("takes the environment's pair over the file", async () => {
    const pair = webpush.generateVAPIDKeys();
    const keys = await loadOrCreateVapidKeys({ dataDir, ...pair });
    expect(keys).to.deep.include({ source: "environment", ...pair });
  });

  for (const [problem, content] of [
    ["not JSON", "{nope"],
    ["missing a key", JSON.stringify({ publicKey: "x" })],
    ["a key of the wrong size", JSON.stringify({ publicKey: "AAAA", privateKey: "BBBB" })],
    [
      "keys of two different pairs",
      JSON.stringify({
        publicKey: webpush.generateVAPIDKeys().publicKey,
        privateKey: webpush.generateVAPIDKeys().privateKey,
      }),
    ],
  ] as const) {
    it(`stops the start, naming the file, when it is ${problem}, and leaves the file alone`, async () => {
      const file = path.join(dataDir, VAPID_KEY_FILE);
      await writeFile(file, content);
      let error: unknown;
      try {
        await loadOrCreateVapidKeys({ dataDir });
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.include(file);
      expect(await readFile(file, "utf8")).to.equal(content);
    });
  }

  it("config wants both keys or neither, and a pair that belongs together", () => {
    const pair = webpush.generateVAPIDKeys();
    const other = webpush.generateVAPIDKeys();
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).to.throw(ConfigError, /VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ VAPID_PRIVATE_KEY: pair.privateKey })).to.throw(ConfigError, /VAPID_PUBLIC_KEY/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey })).to.throw(
      ConfigError,
      /does not belong/,
    );
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: "short", VAPID_PRIVATE_KEY: pair.privateKey })).to.throw(
      ConfigError,
      /VAPID_PUBLIC_KEY/,
    );
    expect(() => loadConfig({ VAPID_SUBJECT: "http://example.com" })).to.throw(ConfigError, /VAPID_SUBJECT/);
    const config = loadConfig({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey });
    expect(config).to.include({ VAPID_PUBLIC_KEY: pair.publicKey, PUSH_ALLOW_PRIVATE_ENDPOINTS: false });
  });
});
