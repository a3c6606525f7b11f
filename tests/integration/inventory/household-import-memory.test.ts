import { createReadStream, createWriteStream } from "node:fs";
import http from "node:http";
import path from "node:path";
import { finished } from "node:stream/promises";
import { expect } from "chai";
import { launch, type LaunchedProcess, useProcessServers } from "../../support/hearth-processes.js";
import { freePort, getJson, waitFor } from "../../support/network.js";

/** Heap the child gets: less than the file, so holding the file (or growing with it) kills it. */
const HEAP_MB = 128;
const ITEMS = 40_000;
const NOTES = "kept since the summer, label on the lid; ".repeat(48);

/** Writes a household file of ITEMS items with long notes, streamed. */
async function generate(file: string, format: "json" | "csv"): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
  await write(format === "json" ? '{"items":[' : "id,name,quantity,freezerName,compartmentName,notes\r\n");
  for (let index = 0; index < ITEMS; index++) {
    const id = `mem${format}${String(index).padStart(9, "0")}`;
    if (format === "json")
      await write(
        `${index ? "," : ""}${JSON.stringify({ id, name: `Item ${index}`, quantity: 1, freezerName: "Chest", compartmentName: `Drawer ${index % 3}`, notes: `${index} ${NOTES}` })}`,
      );
    else await write(`${id},Item ${index},1,Chest,Drawer ${index % 3},"${index} ${NOTES}"\r\n`);
  }
  out.end(format === "json" ? "]}" : "");
  await finished(out);
}

/** Streams a file from disk as the request body. */
function post(url: string, token: string, body: NodeJS.ReadableStream, type: string) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const outgoing = http.request(
      url,
      { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    outgoing.on("error", reject);
    body.pipe(outgoing);
  });
}

async function call(url: string, method: string, token: string | null, body: unknown) {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe(`household import in a Hearth process with --max-old-space-size=${HEAP_MB}`, function () {
  this.timeout(900_000);
  const servers = useProcessServers("import memory");
  let hearth: LaunchedProcess | undefined;

  afterEach(async () => {
    hearth?.child.kill("SIGTERM");
    await hearth?.exited;
  });

  it("imports JSON and CSV files larger than its heap, and refuses a 30 MB CSV cell with 400 while staying up", async () => {
    const port = await freePort();
    hearth = launch(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_MB}`,
        "--conditions=hearth-source",
        "--import",
        "tsx",
        "src/composition/main.ts",
        "start",
      ],
      {
        ...servers.env(),
        API_PORT: String(port),
        HTTP_PORT: "0",
        DATA_DIR: path.join(servers.scratch, "data"),
        AUTOMATIONS_DIR: path.join(servers.scratch, "no-automations"),
        JWT_SECRET: "import-memory-test-secret-0123456789abcdef",
        LOG_LEVEL: "warn",
        RATE_LIMIT_PER_MINUTE: "100000",
      },
    );
    const api = `http://127.0.0.1:${port}/api/v1`;
    const running = hearth;
    await waitFor(
      "the API",
      async () => {
        if (running.child.exitCode !== null) throw new Error(`Hearth exited:\n${running.output()}`);
        return (await getJson(`${api}/health`).catch(() => ({ status: 0 }))).status === 200;
      },
      180_000,
    );
    const { accessToken } = (await call(`${api}/auth/register`, "POST", null, {
      email: `memory-${Date.now()}@example.test`,
      password: "password123",
      name: "Owner",
    })) as { accessToken: string };
    const { id: hid } = (await call(`${api}/households`, "POST", accessToken, { name: "Home" })) as { id: string };

    for (const format of ["json", "csv"] as const) {
      const file = path.join(servers.scratch, `household.${format}`);
      await generate(file, format);
      const type = format === "json" ? "application/json" : "text/csv";
      const answer = await post(`${api}/households/${hid}/import`, accessToken, createReadStream(file), type).catch(
        (error: Error) => {
          throw new Error(`${format}: ${error.message}; Hearth said:\n${running.output()}`);
        },
      );
      expect(answer.status, `${format}: ${JSON.stringify(answer.body)}\n${running.output()}`).to.equal(200);
      expect(answer.body).to.include({ itemsCreated: ITEMS, itemsUnchanged: 0 });
    }

    // One 30 MB cell: refused while it is read, naming the row and column.
    const cell = async function* () {
      yield 'id,name,quantity,freezerName,compartmentName,notes\r\nhugecell0001,Peas,1,Chest,Top,"';
      for (let sent = 0; sent < 30 * 1024 * 1024; sent += 64 * 1024) yield "x".repeat(64 * 1024);
      yield '"\r\n';
    };
    const { Readable } = await import("node:stream");
    const refused = await post(`${api}/households/${hid}/import`, accessToken, Readable.from(cell()), "text/csv");
    expect(refused.status, JSON.stringify(refused.body)).to.equal(400);
    expect(refused.body.details).to.deep.equal([
      {
        path: "row 2",
        message: "notes passes 16384 characters, more than any row of a household file holds (notes take at most 2000)",
      },
    ]);
    expect((await getJson(`${api}/health`)).status).to.equal(200);
    expect(running.child.exitCode).to.equal(null);
  });
});
