/**
 * The socket a running Hearth answers backups on: a dump is taken only when asked for, travels
 * through files on both sides, and a failed or cut-short answer leaves no file behind.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import {
  backupSocketPath,
  isHearthRunning,
  LiveDumpError,
  requestLiveDump,
  serveBackups,
} from "../../../src/adapters/backup/backup-socket.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";

describe("the backup socket", () => {
  let scratch: string;
  let dataDir: string;
  let dumps: number;
  let logger: MemoryLogger;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    // Short: a Unix socket's path is limited to about 100 bytes.
    scratch = await mkdtemp(path.join(tmpdir(), "hb-"));
    dataDir = path.join(scratch, "data");
    dumps = 0;
    logger = new MemoryLogger();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await rm(scratch, { recursive: true, force: true });
  });

  async function serve(dump: (file: string) => Promise<void>): Promise<void> {
    const socket = await serveBackups(
      dataDir,
      async (file) => {
        dumps++;
        await dump(file);
      },
      logger,
    );
    closers.push(() => socket.close());
  }

  it("sends the dump written to a file, removes that file, and takes none for a probe", async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 5);
    await serve((file) => writeFile(file, bytes));
    expect(await isHearthRunning(dataDir)).to.equal(true);
    expect(await isHearthRunning(dataDir)).to.equal(true);
    const target = path.join(scratch, "dump.tar.gz");
    expect(await requestLiveDump(dataDir, target)).to.equal(true);
    expect((await readFile(target)).equals(bytes)).to.equal(true);
    expect(dumps, "the probes asked for no dump").to.equal(1);
    // The server removes the file once it has sent it, then says so.
    while (!logger.entries.some((entry) => entry.msg === "Database dumped for a backup")) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(await readdir(dataDir), "the sent dump is gone").to.deep.equal(["hearth.sock"]);
  });

  it("removes the dumps a crash left in DATA_DIR when it starts listening", async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, ".hearth-dump-left-by-a-crash"), "x");
    await writeFile(path.join(dataDir, "jwt-secret"), "kept");
    await serve(async () => {});
    expect((await readdir(dataDir)).sort()).to.deep.equal(["hearth.sock", "jwt-secret"]);
  });

  it("fails, leaving no file, when the dump cannot be written where it was asked to go", async () => {
    await serve((file) => writeFile(file, "dump"));
    const failure = await requestLiveDump(dataDir, path.join(scratch, "no-such-folder", "dump.tar.gz")).catch(
      (error: unknown) => error,
    );
    expect((failure as NodeJS.ErrnoException).code).to.equal("ENOENT");
    expect(await readdir(scratch)).to.deep.equal(["data"]);
  });

  it("answers false when no Hearth listens", async () => {
    expect(await requestLiveDump(dataDir, path.join(scratch, "dump.tar.gz"))).to.equal(false);
    expect(await readdir(scratch)).to.deep.equal([]);
  });

  it("passes on why the running Hearth could not dump, leaving no file", async () => {
    await serve(async () => {
      throw new Error("the database is not open yet");
    });
    const target = path.join(scratch, "dump.tar.gz");
    const failure = await requestLiveDump(dataDir, target).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(LiveDumpError);
    expect((failure as Error).message).to.include("the database is not open yet");
    expect(await readdir(scratch)).to.deep.equal(["data"]);
    expect(await readdir(dataDir)).to.deep.equal(["hearth.sock"]);
  });

  for (const [what, answer, message] of [
    [
      "an answer cut short",
      `${JSON.stringify({ ok: true, bytes: 100 })}\n${"x".repeat(40)}`,
      "received 40 of 100 bytes",
    ],
    ["no answer", "", "without an answer"],
    ["something else than a dump", "HTTP/1.1 400 Bad Request\r\n\r\n", "something else than a dump"],
  ] as const) {
    it(`refuses ${what}, leaving no file`, async () => {
      await mkdir(dataDir, { recursive: true });
      const server = createServer((socket) => {
        socket.once("data", () => socket.end(answer));
      });
      await new Promise<void>((resolve) => server.listen(backupSocketPath(dataDir), resolve));
      closers.push(() => new Promise((resolve) => server.close(() => resolve())));
      const target = path.join(scratch, "dump.tar.gz");
      const failure = await requestLiveDump(dataDir, target).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(LiveDumpError);
      expect((failure as Error).message).to.include(message);
      expect(await readdir(scratch)).to.deep.equal(["data"]);
    });
  }
});
