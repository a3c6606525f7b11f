/**
 * `hearth backup` against a running Hearth on the embedded database, `hearth restore` into
 * another DATA_DIR, and a Hearth started there: every item, history entry and state key is
 * back, and the restored secrets still accept the old session.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { assertCompiledRuntimeFresh, launch } from "../support/hearth-processes.js";
import { phonePhoto } from "../support/test-photos.js";
import { startTestHearth, type TestHearth } from "../support/test-hearth.js";

interface Snapshot {
  items: unknown;
  archive: unknown;
  histories: Record<string, unknown>;
  state: unknown;
  /** An item's photo thumbnail, base64: photos live in the database, so the backup carries them. */
  photo: string;
}

async function json(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

describe("hearth backup and restore (integration, embedded database)", function () {
  this.timeout(240_000);
  let original: TestHearth;
  let restored: TestHearth | undefined;
  let token: string;
  let hid: string;
  let itemIds: string[];
  let before_: Snapshot;
  /** Archives and restore targets: outside the source's scratch folder, which goes when it stops. */
  let work: string;

  function api(hearth: TestHearth, route: string, init: RequestInit = {}): Promise<unknown> {
    return fetch(`http://127.0.0.1:${hearth.hearth.apiPort}/api/v1${route}`, {
      ...init,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...init.headers },
    }).then(json);
  }

  async function snapshot(hearth: TestHearth): Promise<Snapshot> {
    const histories: Record<string, unknown> = {};
    for (const id of itemIds) histories[id] = await api(hearth, `/households/${hid}/items/${id}/history`);
    const state = await fetch(`http://127.0.0.1:${hearth.hearth.httpPort}/api/state`).then(json);
    const thumb = await fetch(
      `http://127.0.0.1:${hearth.hearth.apiPort}/api/v1/households/${hid}/items/${itemIds[1]}/photo?size=thumb`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    if (!thumb.ok) throw new Error(`photo: ${thumb.status}`);
    return {
      photo: Buffer.from(await thumb.arrayBuffer()).toString("base64"),
      items: await api(hearth, `/households/${hid}/items`),
      archive: await api(hearth, `/households/${hid}/items/archive`),
      histories,
      state,
    };
  }

  before(async () => {
    assertCompiledRuntimeFresh();
    work = await mkdtemp(path.join(tmpdir(), "hearth-backup-"));
    // DATABASE_URL empty: the embedded PGlite in DATA_DIR, whatever the test servers are.
    original = await startTestHearth("backup source", { DATABASE_URL: "" });
    const registered = (await fetch(`http://127.0.0.1:${original.hearth.apiPort}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "keeper@example.test", password: "correct horse battery", name: "Keeper" }),
    }).then(json)) as { accessToken: string };
    token = registered.accessToken;
    hid = (
      (await api(original, "/households", { method: "POST", body: JSON.stringify({ name: "Home" }) })) as { id: string }
    ).id;
    const freezer = (await api(original, `/households/${hid}/freezers`, {
      method: "POST",
      body: JSON.stringify({ name: "Chest" }),
    })) as {
      id: string;
    };
    const compartment = (await api(original, `/households/${hid}/freezers/${freezer.id}/compartments`, {
      method: "POST",
      body: JSON.stringify({ name: "Basket" }),
    })) as { id: string };
    itemIds = [];
    for (const name of ["Peas", "Raspberries", "Lasagne"]) {
      const item = (await api(original, `/households/${hid}/items`, {
        method: "POST",
        body: JSON.stringify({ name, quantity: 2, freezerId: freezer.id, compartmentId: compartment.id }),
      })) as { id: string };
      itemIds.push(item.id);
    }
    await api(original, `/households/${hid}/items/${itemIds[0]}`, {
      method: "PATCH",
      body: JSON.stringify({ quantity: 1, notes: "half a bag" }),
    });
    await api(original, `/households/${hid}/items/${itemIds[1]}/photo`, {
      method: "PUT",
      headers: { "content-type": "image/jpeg" },
      body: new Uint8Array(await phonePhoto(48, 24)),
    });
    await api(original, `/households/${hid}/items/${itemIds[2]}`, { method: "DELETE" });
    const engine = `http://127.0.0.1:${original.hearth.httpPort}/api/state`;
    for (const [key, value] of [
      ["away", true],
      ["thermostat", { target: 19.5 }],
      ["visits", 3],
    ] as const) {
      await fetch(`${engine}/${key}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value }),
      }).then(json);
    }
    before_ = await snapshot(original);
  });

  after(async () => {
    await restored?.release();
    await original?.release();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("rejects a file that is not a Hearth backup and a command line without a file, changing nothing", async () => {
    const bogus = path.join(work, "not-a-backup.tar.gz");
    await writeFile(bogus, "hello");
    const targetDir = path.join(work, "untouched");
    const restore = launch(process.execPath, ["bin/hearth.js", "restore", bogus], { DATA_DIR: targetDir });
    expect(await restore.exited).to.equal(1);
    expect(restore.output()).to.include("is not a Hearth backup");
    const usage = launch(process.execPath, ["bin/hearth.js", "backup"], { DATA_DIR: targetDir });
    expect(await usage.exited).to.equal(2);
    expect(usage.output()).to.include("Usage: hearth backup <file>");
    const missing = launch(process.execPath, ["bin/hearth.js", "backup", path.join(work, "x.tar.gz")], {
      DATA_DIR: targetDir,
    });
    expect(await missing.exited).to.equal(1);
    expect(missing.output()).to.include("no embedded database");
  });

  it("backs up the running instance, refuses unsafe restores, and restores everything elsewhere", async () => {
    const sourceDir = original.hearth.config.DATA_DIR;
    // A second Hearth on the same DATA_DIR stops before it opens the embedded database.
    const second = await startTestHearth("second on the same DATA_DIR", {
      DATA_DIR: sourceDir,
      DATABASE_URL: "",
    }).catch((error: Error) => error);
    expect(second).to.be.instanceOf(Error);
    expect((second as Error).message).to.include("Another Hearth is running on DATA_DIR");
    const archive = path.join(work, "hearth-backup.tar.gz");
    const backup = launch(process.execPath, ["bin/hearth.js", "backup", archive], { DATA_DIR: sourceDir });
    expect(await backup.exited, backup.output()).to.equal(0);
    expect(backup.output()).to.include("from the running Hearth").and.to.include("with the embedded database");

    // Never under the running instance, even with --force.
    const overRunning = launch(process.execPath, ["bin/hearth.js", "restore", archive, "--force"], {
      DATA_DIR: sourceDir,
    });
    expect(await overRunning.exited).to.equal(1);
    expect(overRunning.output()).to.include("Hearth is running on DATA_DIR");

    const targetDir = path.join(work, "restored-data");
    const restore = launch(process.execPath, ["bin/hearth.js", "restore", archive], { DATA_DIR: targetDir });
    expect(await restore.exited, restore.output()).to.equal(0);
    const again = launch(process.execPath, ["bin/hearth.js", "restore", archive], { DATA_DIR: targetDir });
    expect(await again.exited).to.equal(1);
    expect(again.output()).to.include("is not empty").and.to.include("--force");
    const forced = launch(process.execPath, ["bin/hearth.js", "restore", archive, "--force"], { DATA_DIR: targetDir });
    expect(await forced.exited, forced.output()).to.equal(0);

    await original.release();
    restored = await startTestHearth("restored", { DATA_DIR: targetDir, DATABASE_URL: "" });
    // The restored jwt-secret still accepts the session issued before the backup.
    const after_ = await snapshot(restored);
    expect(after_).to.deep.equal(before_);
    expect((before_.items as { data: unknown[] }).data).to.have.length(2);
    expect(JSON.stringify(before_.histories)).to.include("half a bag");
    expect(before_.photo.length).to.be.above(100);
    expect(JSON.stringify(after_.state)).to.include("thermostat").and.to.include("visits").and.to.include("away");
  });
});
