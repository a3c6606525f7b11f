import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { startTestHearth, type TestHearth } from "../../support/test-hearth.js";

/**
 * Imports are spooled under DATA_DIR (not /tmp, which is RAM where it is a tmpfs), and what an
 * import cut short by a stop left there is gone at the next start.
 */
describe("household import spool in DATA_DIR (integration, hearth start)", function () {
  this.timeout(120_000);
  let running: TestHearth | undefined;
  let scratch: string | undefined;
  after(async () => {
    await running?.release();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("empties the spool at start, spools an import there and leaves nothing behind", async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-spool-"));
    const dataDir = path.join(scratch, "data");
    const leftover = path.join(dataDir, "import-spool", "hearth-import-cutshort");
    await mkdir(leftover, { recursive: true });
    await writeFile(path.join(leftover, "import.json"), '{"items":[');

    running = await startTestHearth("import spool", { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: "100000" });
    expect(await readdir(path.join(dataDir)), "the spool of the last run is gone").to.not.include("import-spool");

    const api = `http://127.0.0.1:${running.hearth.apiPort}/api/v1`;
    const json = { "content-type": "application/json" };
    const owner = (await (
      await fetch(`${api}/auth/register`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: `spool-${Date.now()}@example.test`, password: "password123", name: "Owner" }),
      })
    ).json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${owner.accessToken}` };
    const household = (await (
      await fetch(`${api}/households`, { method: "POST", headers: { ...json, ...auth }, body: '{"name":"Home"}' })
    ).json()) as { id: string };
    const imported = await fetch(`${api}/households/${household.id}/import`, {
      method: "POST",
      headers: { "content-type": "text/csv", ...auth },
      body: "id,name,quantity,freezerName,compartmentName\nspooled001,Erbsen,1,Truhe,Oben\n",
    });
    expect(imported.status, await imported.clone().text()).to.equal(200);
    expect(await imported.json()).to.include({ itemsCreated: 1 });
    expect(await readdir(path.join(dataDir, "import-spool")), "spooled here, and removed").to.deep.equal([]);
  });
});
