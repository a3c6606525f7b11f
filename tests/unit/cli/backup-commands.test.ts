import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { backupCommand, restoreCommand } from "../../../src/composition/backup-commands.js";

describe("hearth backup / restore command lines", () => {
  let scratch: string;
  let lines: { out: string[]; err: string[] };
  const output = { out: (line: string) => lines.out.push(line), err: (line: string) => lines.err.push(line) };
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-backup-cli-"));
    lines = { out: [], err: [] };
    delete process.env.DATABASE_URL;
  });

  afterEach(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(scratch, { recursive: true, force: true });
  });

  it("answers a missing file, two files or an unknown option with usage and exit 2", async () => {
    expect(await backupCommand([], output)).to.equal(2);
    expect(await backupCommand(["a.tar.gz", "b.tar.gz"], output)).to.equal(2);
    expect(await restoreCommand(["a.tar.gz", "--yes"], output)).to.equal(2);
    expect(lines.err.join("\n")).to.include("Usage: hearth backup <file>").and.to.include("unknown option --yes");
    expect(lines.err.join("\n")).to.include("Usage: hearth restore <file> [--force]");
  });

  it("refuses a DATA_DIR without an embedded database, writing no archive", async () => {
    process.env.DATA_DIR = path.join(scratch, "empty");
    expect(await backupCommand([path.join(scratch, "out.tar.gz")], output)).to.equal(1);
    expect(lines.err.join("\n")).to.include("There is no embedded database");
    expect(await readdir(scratch)).to.deep.equal([]);
  });

  it("refuses a DATA_DIR too long for the socket: it cannot tell whether Hearth runs there", async () => {
    process.env.DATA_DIR = path.join(scratch, "d".repeat(120));
    expect(await backupCommand([path.join(scratch, "out.tar.gz")], output)).to.equal(1);
    expect(lines.err.join("\n")).to.include("too long for Hearth's backup socket");
    expect(await readdir(scratch)).to.deep.equal([]);
  });

  it("restores nothing from a file that does not exist", async () => {
    process.env.DATA_DIR = path.join(scratch, "target");
    expect(await restoreCommand([path.join(scratch, "missing.tar.gz")], output)).to.equal(1);
    expect(lines.err.join("\n")).to.include("No backup at");
    expect(await readdir(scratch)).to.deep.equal([]);
  });
});
