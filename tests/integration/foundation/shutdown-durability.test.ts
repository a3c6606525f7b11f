import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { freePort, waitFor } from "../../support/network.js";
import { acquireBroker, acquireDatabase, type TestBroker, type TestDatabase } from "../../support/test-servers.js";

/** One PUT on a keep-alive agent; resolves with the status, or null when the connection failed. */
function put(agent: Agent, port: number, key: string, value: unknown): Promise<number | null> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ value });
    const req = httpRequest(
      { host: "127.0.0.1", port, method: "PUT", path: `/api/state/${key}`, agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? null));
      },
    );
    req.on("error", () => resolve(null));
    req.end(body);
  });
}

describe("nothing acknowledged is lost on a clean stop (integration, real signals)", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let broker: TestBroker;
  let scratch: string;

  before(async () => {
    database = await acquireDatabase("shutdown durability");
    broker = await acquireBroker("shutdown durability");
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-durability-"));
  });
  after(async () => {
    await database?.release();
    await broker?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("every 200 from PUT /api/state is on disk after SIGTERM, under concurrent writers", async () => {
    const httpPort = await freePort();
    const dataDir = path.join(scratch, "data");
    const child: ChildProcess = spawn(process.execPath, ["bin/hearth.js", "start"], {
      env: {
        PATH: process.env.PATH ?? "",
        DATA_DIR: dataDir,
        AUTOMATIONS_DIR: path.join(scratch, "none"),
        API_PORT: String(await freePort()),
        HTTP_PORT: String(httpPort),
        HTTP_AUTH: "false",
        MQTT_HOST: broker.host,
        MQTT_PORT: String(broker.port),
        LOG_LEVEL: "warn",
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await waitFor("the engine", async () => (await fetch(`http://127.0.0.1:${httpPort}/readyz`).catch(() => null))?.status === 200, 60_000);

    // Eight keep-alive writers, each counting up its own key; the last value each saw acknowledged must be saved.
    const writers = 8;
    const acknowledged = new Map<string, number>();
    let signalled = false;
    const writer = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const key = `seq-${index}`;
      for (let n = 1; ; n++) {
        const status = await put(agent, httpPort, key, n);
        if (status === 200) acknowledged.set(key, n);
        else if (status === null || (signalled && status === 503)) break;
        if (n === 40 && index === 0) {
          signalled = true;
          child.kill("SIGTERM");
        }
      }
      agent.destroy();
    };
    await Promise.all(Array.from({ length: writers }, (_, index) => writer(index)));
    expect(await exited, output).to.equal(0);
    const saved = JSON.parse(await readFile(path.join(dataDir, "state.json"), "utf8")) as { state?: Record<string, unknown> } & Record<string, unknown>;
    const values = (saved.state ?? saved) as Record<string, unknown>;
    expect(acknowledged.size).to.equal(writers);
    for (const [key, value] of acknowledged) expect(values[key], key).to.equal(value);
  });
});
