import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { expect } from "chai";
import {
  BackupFormatError,
  backupDatabase,
  readBackup,
  RestoreTargetNotEmptyError,
  restoreBackup,
  writeBackup,
} from "../../../src/adapters/backup/data-dir-backup.js";
import { writeArchive } from "../../../src/adapters/backup/tar-archive.js";

describe("DATA_DIR backups", () => {
  let scratch: string;
  let source: string;
  const restoredDumps: Buffer[] = [];
  const restoreDatabase = async (dataDir: string, dump: Readable) => {
    const pieces: Buffer[] = [];
    for await (const piece of dump) pieces.push(piece as Buffer);
    restoredDumps.push(Buffer.concat(pieces));
    await mkdir(path.join(dataDir, "pglite"), { recursive: true });
    await writeFile(path.join(dataDir, "pglite", "PG_VERSION"), "17");
  };

  beforeEach(async () => {
    restoredDumps.length = 0;
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-backup-unit-"));
    source = path.join(scratch, "data");
    await mkdir(path.join(source, "homekit"), { recursive: true });
    await mkdir(path.join(source, "pglite"), { recursive: true });
    await writeFile(path.join(source, "jwt-secret"), "jwt\n");
    await writeFile(path.join(source, "http-token"), "token\n");
    await writeFile(path.join(source, "state.json"), '{"away":true}');
    await writeFile(path.join(source, "homekit", "AccessoryInfo.json"), "{}");
    await writeFile(path.join(source, "pglite", "live-file"), "not copied: the dump stands in for it");
    await writeFile(path.join(scratch, "device-registry.json"), '{"devices":[]}');
  });

  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  async function backup(): Promise<string> {
    const file = path.join(scratch, "backup.tar.gz");
    const dump = path.join(scratch, "dump.partial");
    await writeFile(dump, "dump");
    await writeBackup(file, {
      dataDir: source,
      stateFile: path.join(source, "state.json"),
      deviceRegistryFile: path.join(scratch, "device-registry.json"),
      hearthVersion: "1.2.3",
      databaseDump: dump,
      now: new Date("2026-11-24T12:00:00Z"),
    });
    return file;
  }

  it("holds DATA_DIR's files (not the live database), the dump, and files kept outside DATA_DIR", async () => {
    // A running Hearth's dump for another backup, waiting in DATA_DIR while it is sent.
    await writeFile(path.join(source, ".hearth-dump-0b1e"), "being sent");
    // A household import being read meanwhile, spooled under DATA_DIR.
    await mkdir(path.join(source, "import-spool", "hearth-import-Ab12Cd"), { recursive: true });
    await writeFile(path.join(source, "import-spool", "hearth-import-Ab12Cd", "import.csv"), "id,name\n");
    const read = await readBackup(await backup());
    expect(read.manifest).to.include({
      format: 1,
      hearthVersion: "1.2.3",
      database: "pglite",
      createdAt: "2026-11-24T12:00:00.000Z",
    });
    expect(read.dataFiles.map((entry) => entry.path).sort()).to.deep.equal([
      "homekit/AccessoryInfo.json",
      "http-token",
      "jwt-secret",
      "state.json",
    ]);
    expect(read.hasDatabase).to.equal(true);
    const pieces: Buffer[] = [];
    for await (const piece of backupDatabase(read)) pieces.push(piece as Buffer);
    expect(Buffer.concat(pieces).toString()).to.equal("dump");
    expect(Buffer.from(read.deviceRegistryFile as Uint8Array).toString()).to.equal('{"devices":[]}');
    expect((await stat(path.join(scratch, "backup.tar.gz"))).mode & 0o777).to.equal(0o600);
  });

  it("restores into a missing DATA_DIR, and refuses a non-empty one or an existing outside file without force", async () => {
    const read = await readBackup(await backup());
    const target = path.join(scratch, "restored");
    const registry = path.join(scratch, "restored-registry.json");
    await restoreBackup(read, { dataDir: target, deviceRegistryFile: registry, force: false, restoreDatabase });
    expect(await readFile(path.join(target, "jwt-secret"), "utf8")).to.equal("jwt\n");
    expect(await readFile(path.join(target, "homekit", "AccessoryInfo.json"), "utf8")).to.equal("{}");
    expect(await readFile(registry, "utf8")).to.equal('{"devices":[]}');
    expect((await stat(path.join(target, "jwt-secret"))).mode & 0o777).to.equal(0o600);
    expect(restoredDumps).to.have.length(1);

    await writeFile(path.join(target, "jwt-secret"), "changed\n");
    const error = await restoreBackup(read, {
      dataDir: target,
      deviceRegistryFile: registry,
      force: false,
      restoreDatabase,
    }).catch((e) => e);
    expect(error).to.be.instanceOf(RestoreTargetNotEmptyError);
    expect((error as Error).message)
      .to.include("is not empty")
      .and.to.include("restored-registry.json exists");
    expect(await readFile(path.join(target, "jwt-secret"), "utf8"), "nothing changed").to.equal("changed\n");
    expect(restoredDumps).to.have.length(1);

    await restoreBackup(read, { dataDir: target, deviceRegistryFile: registry, force: true, restoreDatabase });
    expect(await readFile(path.join(target, "jwt-secret"), "utf8")).to.equal("jwt\n");
  });

  it("rejects a missing file, a tar without a manifest, a foreign manifest and an incomplete backup", async () => {
    const expectFormatError = async (file: string, message: string) => {
      const error = await readBackup(file).catch((e) => e);
      expect(error).to.be.instanceOf(BackupFormatError);
      expect((error as Error).message).to.include(message);
    };
    await expectFormatError(path.join(scratch, "nope.tar.gz"), "No backup at");
    const write = async (name: string, entries: { path: string; data: Uint8Array }[]) => {
      const file = path.join(scratch, name);
      await writeArchive(file, entries);
      return file;
    };
    await expectFormatError(
      await write("plain.tar.gz", [{ path: "x", data: Buffer.from("x") }]),
      "has no hearth-backup.json",
    );
    await expectFormatError(
      await write("foreign.tar.gz", [{ path: "hearth-backup.json", data: Buffer.from('{"format":9}') }]),
      "cannot read",
    );
    const manifest = { format: 1, hearthVersion: "1", createdAt: "x", database: "pglite", files: ["data/state.json"] };
    await expectFormatError(
      await write("incomplete.tar.gz", [{ path: "hearth-backup.json", data: Buffer.from(JSON.stringify(manifest)) }]),
      "incomplete",
    );
    // Files besides the database past what a backup's reading keeps in memory (64 MB in all).
    await expectFormatError(
      await write("bloated.tar.gz", [
        { path: "hearth-backup.json", data: Buffer.from(JSON.stringify(manifest)) },
        { path: "data/state.json", data: Buffer.alloc(40 * 1024 * 1024) },
        { path: "data/more.json", data: Buffer.alloc(40 * 1024 * 1024) },
      ]),
      "larger than a Hearth backup's",
    );
  });

  it("stops reading the archive when restoring the database fails, and says why", async () => {
    const read = await readBackup(await backup());
    const failure = await restoreBackup(read, {
      dataDir: path.join(scratch, "restored"),
      force: false,
      restoreDatabase: async (_dataDir, dump) => {
        dump.destroy(new Error("the disk is full"));
        throw new Error("the disk is full");
      },
    }).catch((error: unknown) => error);
    expect((failure as Error).message).to.equal("the disk is full");
    expect(await readdir(path.join(scratch, "restored"))).to.deep.equal([]);
  });
});
