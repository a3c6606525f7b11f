import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { expect } from "chai";
import { ArchiveFormatError, packArchive, unpackArchive } from "../../../src/adapters/backup/tar-archive.js";

describe("tar archive (backups)", () => {
  const longPath = `data/homekit/${"pairing-".repeat(12)}/${"accessory".repeat(8)}.json`;

  it("round-trips files, empty files, exact block sizes and long paths, with their modes", () => {
    const entries = [
      { path: "hearth-backup.json", data: Buffer.from('{"format":1}') },
      { path: "data/jwt-secret", data: Buffer.from("s3cret\n"), mode: 0o600 },
      { path: "data/empty", data: new Uint8Array(0) },
      { path: "data/block", data: Buffer.alloc(512, 7) },
      { path: longPath, data: Buffer.from("{}") },
    ];
    const unpacked = unpackArchive(packArchive(entries));
    expect(unpacked.map((entry) => entry.path)).to.deep.equal(entries.map((entry) => entry.path));
    for (const [index, entry] of unpacked.entries()) {
      expect(Buffer.from(entry.data).equals(Buffer.from(entries[index]?.data as Uint8Array))).to.equal(true);
    }
    expect(unpacked[1]?.mode).to.equal(0o600);
    expect(unpacked[0]?.mode).to.equal(0o644);
  });

  it("writes an archive the system tar lists", async function () {
    if (spawnSync("tar", ["--version"]).status !== 0) {
      console.log("      SKIPPED: no tar command on this machine");
      this.skip();
    }
    const dir = await mkdtemp(path.join(tmpdir(), "hearth-tar-"));
    try {
      await writeFile(
        path.join(dir, "a.tar.gz"),
        packArchive([
          { path: "data/state.json", data: Buffer.from("{}") },
          { path: longPath, data: Buffer.from("x") },
        ]),
      );
      const listed = spawnSync("tar", ["-tzf", path.join(dir, "a.tar.gz")], { encoding: "utf8" });
      expect(listed.stdout.trim().split("\n")).to.deep.equal(["data/state.json", longPath]);
      spawnSync("tar", ["-xzf", path.join(dir, "a.tar.gz"), "-C", dir]);
      expect(await readFile(path.join(dir, "data/state.json"), "utf8")).to.equal("{}");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rejects what is not a gzip'd tar, a truncated one, and paths that leave the target", () => {
    expect(() => unpackArchive(Buffer.from("hello"))).to.throw(ArchiveFormatError, "not a gzip");
    expect(() => unpackArchive(gzipSync(Buffer.alloc(512, 1)))).to.throw(ArchiveFormatError, "not a tar");
    const whole = packArchive([{ path: "data/x", data: Buffer.alloc(2000, 1) }]);
    const truncated = gzipSync(gunzipSync(whole).subarray(0, 1024));
    expect(() => unpackArchive(truncated)).to.throw(ArchiveFormatError, "truncated");
    for (const bad of ["../escape", "/etc/passwd", "data/../../escape"]) {
      expect(() => unpackArchive(packArchive([{ path: bad, data: Buffer.from("x") }]))).to.throw(
        ArchiveFormatError,
        "outside",
      );
    }
  });
});
