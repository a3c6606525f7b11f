import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { expect } from "chai";
import { openDatabase } from "../../../src/adapters/persistence/database.js";
import { freePort, waitFor } from "../../support/network.js";
import { launch, useProcessServers } from "../../support/hearth-processes.js";

type Outcome = { status: number; body: string } | { error: string };

function send(
  agent: Agent,
  port: number,
  method: string,
  route: string,
  body: unknown,
  token?: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const text = body === undefined ? "" : JSON.stringify(body);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path: `/api/v1${route}`,
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let data = "";
        res.on("data", (chunk: Buffer) => (data += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(text);
  });
}

describe("inventory API drains in-flight requests on SIGTERM (integration, real signals)", function () {
  this.timeout(120_000);
  const servers = useProcessServers("inventory drain");

  it("every 2xx is committed, and every committed item got its 2xx", async () => {
    const apiPort = await freePort();
    const dataDir = path.join(servers.scratch, "data");
    const { child, exited, output } = launch(process.execPath, ["bin/hearth.js", "start"], {
      DATA_DIR: dataDir,
      AUTOMATIONS_DIR: path.join(servers.scratch, "none"),
      API_PORT: String(apiPort),
      HTTP_PORT: "0",
      RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: "warn",
      ...servers.env(),
    });
    await waitFor(
      "the API",
      async () => (await fetch(`http://127.0.0.1:${apiPort}/api/v1/health`).catch(() => null))?.status === 200,
      60_000,
    );

    const setup = new Agent({ keepAlive: false });
    const registered = await send(setup, apiPort, "POST", "/auth/register", {
      email: "drain@example.com",
      password: "correct horse battery",
      name: "Drain",
    });
    expect(registered, JSON.stringify(registered)).to.have.property("status", 201);
    const token = (JSON.parse((registered as { body: string }).body) as { accessToken: string }).accessToken;
    const household = JSON.parse(
      ((await send(setup, apiPort, "POST", "/households", { name: "H" }, token)) as { body: string }).body,
    ) as { id: string };
    const freezer = JSON.parse(
      (
        (await send(setup, apiPort, "POST", `/households/${household.id}/freezers`, { name: "F" }, token)) as {
          body: string;
        }
      ).body,
    ) as { id: string };
    const compartment = JSON.parse(
      (
        (await send(
          setup,
          apiPort,
          "POST",
          `/households/${household.id}/freezers/${freezer.id}/compartments`,
          { name: "C" },
          token,
        )) as { body: string }
      ).body,
    ) as { id: string };

    const acknowledged = new Set<string>();
    const failures: string[] = [];
    let signalled = false;
    const client = async (index: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let n = 0; ; n++) {
        const name = `item-${index}-${n}`;
        const outcome = await send(
          agent,
          apiPort,
          "POST",
          `/households/${household.id}/items`,
          { name, quantity: 1, freezerId: freezer.id, compartmentId: compartment.id },
          token,
        );
        if ("status" in outcome && outcome.status === 201) acknowledged.add(name);
        else if ("error" in outcome) {
          // Refused before sending (the listener is gone) is fine; anything else may have lost a write.
          if (outcome.error !== "ECONNREFUSED") failures.push(`${name}: ${outcome.error}`);
          break;
        } else failures.push(`${name}: HTTP ${outcome.status} ${outcome.body}`);
        if (index === 0 && n === 30 && !signalled) {
          signalled = true;
          child.kill("SIGTERM");
        }
      }
      agent.destroy();
    };
    await Promise.all(Array.from({ length: 8 }, (_, index) => client(index)));
    expect(await exited, output()).to.equal(0);
    expect(failures, failures.join("\n")).to.deep.equal([]);

    const reopened = await openDatabase({ databaseUrl: servers.database.url, dataDir });
    try {
      const rows = (await reopened.knex("freezer_items").select("name")) as { name: string }[];
      const committed = new Set(rows.map((row) => row.name));
      expect([...committed].sort()).to.deep.equal([...acknowledged].sort());
    } finally {
      await reopened.close();
    }
  });
});
