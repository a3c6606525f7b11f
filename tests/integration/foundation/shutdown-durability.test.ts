import { readFile } from "node:fs/promises";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { expect } from "chai";
import { freePort, waitFor } from "../../support/network.js";
import { launch, useProcessServers } from "../../support/hearth-processes.js";

/** One PUT on a keep-alive agent; resolves with the status, or null when the connection failed. */
function put(agent: Agent, port: number, key: string, value: unknown): Promise<number | null> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ value });
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "PUT",
        path: `/api/state/${key}`,
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
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
  const servers = useProcessServers("shutdown durability");

  it("every 200 from PUT /api/state is on disk after SIGTERM, under concurrent writers", async () => {
    const httpPort = await freePort();
    const dataDir = path.join(servers.scratch, "data");
    const { child, exited, output } = launch(process.execPath, ["bin/hearth.js", "start"], {
      DATA_DIR: dataDir,
      AUTOMATIONS_DIR: path.join(servers.scratch, "none"),
      API_PORT: String(await freePort()),
      HTTP_PORT: String(httpPort),
      HTTP_AUTH: "false",
      LOG_LEVEL: "warn",
      ...servers.env(),
      // The state file is what this test reads; hot standby would keep the state in PostgreSQL.
      HOT_STANDBY: "false",
    });
    await waitFor(
      "the engine",
      async () => (await fetch(`http://127.0.0.1:${httpPort}/readyz`).catch(() => null))?.status === 200,
      60_000,
    );

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
    expect(await exited, output()).to.equal(0);
    const saved = JSON.parse(await readFile(path.join(dataDir, "state.json"), "utf8")) as {
      state?: Record<string, unknown>;
    } & Record<string, unknown>;
    const values = (saved.state ?? saved) as Record<string, unknown>;
    expect(acknowledged.size).to.equal(writers);
    for (const [key, value] of acknowledged) expect(values[key], key).to.equal(value);
  });
});
