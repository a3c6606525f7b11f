import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { expect } from "chai";
import {
  type ArchiveEntry,
  ArchiveFormatError,
  readArchive,
  writeArchive,
} from "../../../src/adapters/backup/tar-archive.js";

describe("tar archive (backups)", () => {
  const longPath = `data/homekit/${"pairing-".repeat(12)}/${"accessory".repeat(8)}.json`;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hearth-tar-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The archive writeArchive makes of `entries`, as a file. */
  async function packed(entries: ArchiveEntry[]): Promise<string> {
    const file = path.join(dir, `packed-${Math.random().toString(36).slice(2)}.tar.gz`);
    await writeArchive(file, entries);
    return file;
  }

  /** Every regular file of the archive in `file`, read back with readArchive. */
  async function unpacked(file: string): Promise<ArchiveEntry[]> {
    const entries: ArchiveEntry[] = [];
    await readArchive(file, (entry) => {
      const pieces: Buffer[] = [];
      entries.push({ path: entry.path, mode: entry.mode, data: new Uint8Array(0) });
      const at = entries.length - 1;
      return (piece) => {
        pieces.push(Buffer.from(piece));
        (entries[at] as ArchiveEntry).data = Buffer.concat(pieces);
      };
    });
    return entries;
  }

  /** Writes `bytes` to a file and resolves to what readArchive refuses it with. */
  async function refusal(bytes: Uint8Array): Promise<unknown> {
    const file = path.join(dir, `bad-${Math.random().toString(36).slice(2)}`);
    await writeFile(file, bytes);
    return unpacked(file).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it("round-trips files, empty files, exact block sizes and long paths, with their modes", async () => {
    const entries = [
      { path: "hearth-backup.json", data: Buffer.from('{"format":1}') },
      { path: "data/jwt-secret", data: Buffer.from("s3cret\n"), mode: 0o600 },
      { path: "data/empty", data: new Uint8Array(0) },
      { path: "data/block", data: Buffer.alloc(512, 7) },
      { path: longPath, data: Buffer.from("{}") },
    ];
    const read = await unpacked(await packed(entries));
    expect(read.map((entry) => entry.path)).to.deep.equal(entries.map((entry) => entry.path));
    for (const [index, entry] of read.entries()) {
      expect(Buffer.from(entry.data).equals(Buffer.from(entries[index]?.data as Uint8Array))).to.equal(true);
    }
    expect(read[1]?.mode).to.equal(0o600);
    expect(read[0]?.mode).to.equal(0o644);
  });

  it("writes an archive the system tar lists", async function () {
    if (spawnSync("tar", ["--version"]).status !== 0) {
      console.log("      SKIPPED: no tar command on this machine");
      this.skip();
    }
    await writeArchive(path.join(dir, "a.tar.gz"), [
      { path: "data/state.json", data: Buffer.from("{}") },
      { path: longPath, data: Buffer.from("x") },
    ]);
    const listed = spawnSync("tar", ["-tzf", path.join(dir, "a.tar.gz")], { encoding: "utf8" });
    expect(listed.stdout.trim().split("\n")).to.deep.equal(["data/state.json", longPath]);
    spawnSync("tar", ["-xzf", path.join(dir, "a.tar.gz"), "-C", dir]);
    expect(await readFile(path.join(dir, "data/state.json"), "utf8")).to.equal("{}");
  });

  it("takes an entry's bytes from a file on disk, a piece at a time", async () => {
    // Three pieces and a bit: the reader's pieces are 1 MB.
    const big = Buffer.alloc(3 * 1024 * 1024 + 100);
    for (let at = 0; at < big.length; at++) big[at] = (at * 7919) % 251;
    await writeFile(path.join(dir, "dump"), big);
    const file = path.join(dir, "b.tar.gz");
    await writeArchive(file, [
      { path: "hearth-backup.json", data: Buffer.from("{}") },
      { path: "database/pglite.tar.gz", file: path.join(dir, "dump"), mode: 0o600 },
      { path: "data/after", data: Buffer.from("after") },
    ]);
    const read = await unpacked(file);
    expect(read.map((entry) => [entry.path, entry.data.byteLength])).to.deep.equal([
      ["hearth-backup.json", 2],
      ["database/pglite.tar.gz", big.length],
      ["data/after", 5],
    ]);
    expect(Buffer.from(read[1]?.data as Uint8Array).equals(big)).to.equal(true);
    expect(read[1]?.mode).to.equal(0o600);
  });

  it("fails, without hanging, when the archive cannot be written or an entry's file is missing", async () => {
    const intoMissingFolder = await writeArchive(path.join(dir, "no-such-folder", "c.tar.gz"), [
      { path: "x", data: Buffer.alloc(4 * 1024 * 1024, 1) },
    ]).catch((error: unknown) => error);
    expect((intoMissingFolder as NodeJS.ErrnoException).code).to.equal("ENOENT");
    const missingEntry = await writeArchive(path.join(dir, "d.tar.gz"), [
      { path: "database/pglite.tar.gz", file: path.join(dir, "not-there") },
    ]).catch((error: unknown) => error);
    expect((missingEntry as NodeJS.ErrnoException).code).to.equal("ENOENT");
  });

  it("rejects what is not a gzip'd tar, a truncated one, and paths that leave the target", async () => {
    expect(await refusal(Buffer.from("hello")))
      .to.be.instanceOf(ArchiveFormatError)
      .with.property("message")
      .that.includes("not a gzip");
    expect(await refusal(gzipSync(Buffer.alloc(512, 1))))
      .to.be.instanceOf(ArchiveFormatError)
      .with.property("message")
      .that.includes("not a tar");
    const whole = await readFile(await packed([{ path: "data/x", data: Buffer.alloc(2000, 1) }]));
    const truncated = gzipSync(gunzipSync(whole).subarray(0, 1024));
    expect(await refusal(truncated))
      .to.be.instanceOf(ArchiveFormatError)
      .with.property("message")
      .that.includes("truncated");
    expect(await refusal(whole.subarray(0, whole.length - 20)))
      .to.be.instanceOf(ArchiveFormatError)
      .with.property("message")
      .that.includes("truncated");
    for (const bad of ["../escape", "/etc/passwd", "data/../../escape"]) {
      const archive = await readFile(await packed([{ path: bad, data: Buffer.from("x") }]));
      expect(await refusal(archive))
        .to.be.instanceOf(ArchiveFormatError)
        .with.property("message")
        .that.includes("outside");
    }
  });
});
