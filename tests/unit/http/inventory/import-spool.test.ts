import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import type { Server } from "node:http";
import path from "node:path";
import { expect } from "chai";
import request from "supertest";
import { statusOf } from "../../../../src/adapters/http/error-status.js";
import {
  type HouseholdDataUseCases,
  IMPORTS_AT_ONCE,
  spoolFailure,
} from "../../../../src/adapters/http/inventory/household-data-routes.js";
import type { ImportRow } from "../../../../src/domain/inventory/household-transfer.js";
import { HOUSEHOLD, importRouterApp } from "./import-router-app.js";

const FILE = "id,name,quantity,freezerName,compartmentName\nabcdefgh01,Erbsen,1,Truhe,Oben\n";

/** Event-loop turns, enough for a body already in the socket to be read if nothing holds it back. */
async function turns(count: number): Promise<void> {
  for (let index = 0; index < count; index++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * The import route over a use case that reads the rows, notes what the spool folder holds
 * meanwhile, then waits until the test releases it (an import in progress).
 */
function appWith(spoolDir: string) {
  const state = { calls: 0, seen: [] as string[][], releases: [] as (() => void)[] };
  const useCases = {
    importHousehold: {
      async execute(input: { rows: () => AsyncIterable<ImportRow> }) {
        state.calls++;
        let rows = 0;
        for await (const _row of input.rows()) rows++;
        state.seen.push(await readdir(spoolDir, { recursive: true }));
        await new Promise<void>((resolve) => state.releases.push(resolve));
        return { rows };
      },
    },
  } as unknown as HouseholdDataUseCases;
  const app = importRouterApp(useCases, { spoolDir });
  return { server: app.listen(0, "127.0.0.1"), state };
}

const post = (server: Server) =>
  request(server).post(`/households/${HOUSEHOLD}/import`).set("Content-Type", "text/csv").send(FILE);

describe("household import: the spool", () => {
  let spoolDir: string;
  let server: Server | undefined;
  beforeEach(async () => {
    await mkdir("tmp", { recursive: true });
    spoolDir = path.join(await mkdtemp(path.resolve("tmp", "import-spool-")), "import-spool");
  });
  afterEach(async () => {
    server?.close();
    await rm(path.dirname(spoolDir), { recursive: true, force: true });
  });

  it("spools into its folder (made when missing) and leaves nothing there by the answer", async () => {
    const app = appWith(spoolDir);
    server = app.server;
    const answer = post(server).then((response) => response);
    while (app.state.releases.length === 0) await turns(1);
    app.state.releases.shift()?.();
    const response = await answer;
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(app.state.seen[0]?.some((entry) => /^hearth-import-[^/]+\/import\.csv$/.test(entry))).to.equal(true);
    expect(await readdir(spoolDir)).to.deep.equal([]);
  });

  it(`reads ${IMPORTS_AT_ONCE} imports at once; another is read only once one of them is done`, async () => {
    const app = appWith(spoolDir);
    server = app.server;
    const { state } = app;
    const sent = IMPORTS_AT_ONCE + 1;
    const answers = Promise.all(
      Array.from({ length: sent }, () => post(app.server).then((response) => response.status)),
    );
    while (state.calls < sent || state.releases.length < IMPORTS_AT_ONCE) await turns(1);
    await turns(50);
    expect(state.seen, "the last one's file is not read yet").to.have.length(IMPORTS_AT_ONCE);
    state.releases.shift()?.();
    // The last one takes the turn the first gave back.
    while (state.releases.length < sent - 1) await turns(1);
    expect(state.seen).to.have.length(sent);
    for (const release of state.releases.splice(0)) release();
    expect(await answers).to.deep.equal(Array.from({ length: sent }, () => 200));
  });

  it("says a full disk while spooling is the server's lack of room (507), and leaves other failures alone", () => {
    for (const code of ["ENOSPC", "EDQUOT"]) {
      const failure = spoolFailure(Object.assign(new Error("no space left on device"), { code }));
      expect(failure?.code, code).to.equal("IMPORT_NO_SPACE");
      expect(statusOf(failure?.code ?? "VALIDATION_FAILED")).to.equal(507);
    }
    expect(spoolFailure(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).to.equal(null);
    expect(spoolFailure(undefined)).to.equal(null);
  });
});
