import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, readdir, rm, stat, unlink } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import type { Logger } from "../../ports/logger.js";
import { keepsFiles } from "../../ports/data-dir.js";

/**
 * The Unix socket a running Hearth answers in DATA_DIR: `hearth backup` asks it for a dump of
 * the embedded database, which only the process holding PGlite can take consistently. It is
 * also how a second `hearth start` (or `hearth restore`) sees that DATA_DIR is in use. Access
 * is the file's: 0600, like the secrets beside it.
 */
export const BACKUP_SOCKET_NAME = "hearth.sock";

/**
 * A running Hearth's dump waits in DATA_DIR under this prefix while it is sent (a backup leaves
 * such files out): on disk, not in memory, however large the database.
 */
export const LIVE_DUMP_PREFIX = ".hearth-dump-";

/** What `hearth backup` sends to ask for a dump. */
const DUMP_REQUEST = "dump\n";

/** Longest header line a dump's answer starts with; anything longer is not Hearth's. */
const MAX_HEADER_BYTES = 64 * 1024;

/** Unix socket paths are limited to about 107 bytes (sockaddr_un). */
const MAX_SOCKET_PATH = 100;

export function backupSocketPath(dataDir: string): string {
  return path.resolve(dataDir, BACKUP_SOCKET_NAME);
}

/** Whether DATA_DIR's socket path fits a Unix socket (on Windows there is none). */
export function backupSocketUsable(dataDir: string): boolean {
  return process.platform !== "win32" && Buffer.byteLength(backupSocketPath(dataDir)) <= MAX_SOCKET_PATH;
}

/** Another Hearth process answers on this DATA_DIR's socket. */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(`Another Hearth is running on DATA_DIR ${dataDir} (it answers on ${BACKUP_SOCKET_NAME}); stop it first`);
    this.name = "DataDirInUseError";
  }
}

export interface BackupSocket {
  /** Where it listens, or null when the path was too long for a Unix socket. */
  readonly path: string | null;
  close(): Promise<void>;
}

/** Answers whether something listens on `socketPath` (a stale file left by a crash does not). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Listens on DATA_DIR's socket and answers each connection that asks for a dump ("dump\n")
 * with one (a header line of JSON, then the bytes). `dump` writes it to the file it is given,
 * which is sent from disk and removed. Fails with DataDirInUseError when another Hearth already
 * answers there; a socket file left behind by a crash is replaced.
 */
export async function serveBackups(
  dataDir: string,
  dump: (file: string) => Promise<void>,
  logger: Logger,
): Promise<BackupSocket> {
  if (!keepsFiles(dataDir) || process.platform === "win32") return { path: null, close: async () => {} };
  const socketPath = backupSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    logger.warn(
      `DATA_DIR's path is too long for a Unix socket: live backups (hearth backup) are off; stop Hearth to back up`,
      {
        socket: socketPath,
      },
    );
    return { path: null, close: async () => {} };
  }
  if (await answers(socketPath)) throw new DataDirInUseError(path.resolve(dataDir));
  await mkdir(path.dirname(socketPath), { recursive: true });
  await unlink(socketPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  // Dumps a crash left behind while they were being sent: no other Hearth runs here now.
  for (const name of await readdir(path.dirname(socketPath))) {
    if (name.startsWith(LIVE_DUMP_PREFIX)) await rm(path.join(path.dirname(socketPath), name), { force: true });
  }
  const answer = async (socket: Socket) => {
    const file = path.join(path.dirname(socketPath), `${LIVE_DUMP_PREFIX}${randomUUID()}`);
    try {
      let bytes: number;
      try {
        await dump(file);
        bytes = (await stat(file)).size;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        socket.end(`${JSON.stringify({ ok: false, message })}\n`);
        logger.error("Database dump for a backup failed", { error: message });
        return;
      }
      socket.write(`${JSON.stringify({ ok: true, bytes })}\n`);
      await pipeline(createReadStream(file), socket);
      await rm(file, { force: true });
      logger.info("Database dumped for a backup", { bytes });
    } catch (error) {
      logger.warn("Backup request failed", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      await rm(file, { force: true });
    }
  };
  const server: Server = createServer((socket) => {
    socket.on("error", () => {
      // Reported by answer(), which the failed write or pipeline rejects; a probe's is nothing.
    });
    // A dump is taken only when asked for: the connections that only check whether a Hearth
    // runs here (a second start, restore, backup's own check) close without asking.
    let request = "";
    const onData = (chunk: Buffer) => {
      request += chunk.toString("latin1");
      if (request.startsWith(DUMP_REQUEST)) {
        socket.off("data", onData);
        void answer(socket);
      } else if (request.length >= DUMP_REQUEST.length) {
        socket.destroy();
      }
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        // Node removes the socket file when the server closes.
        server.close(() => resolve());
      }),
  };
}

/** Raised when the running Hearth could not dump its database. */
export class LiveDumpError extends Error {
  constructor(message: string) {
    super(`The running Hearth could not dump its database: ${message}`);
    this.name = "LiveDumpError";
  }
}

const dumpHeader = z.object({
  ok: z.boolean(),
  bytes: z.number().int().nonnegative().optional(),
  message: z.string().optional(),
});

/**
 * Asks the Hearth running on `dataDir` for a dump of its embedded database and writes it to
 * `file` as it arrives (mode 0600). Resolves to false when no Hearth answers there (the
 * database may then be opened directly); on any failure no file is left.
 */
export async function requestLiveDump(dataDir: string, file: string): Promise<boolean> {
  const socketPath = backupSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH || !(await answers(socketPath))) return false;
  const out = createWriteStream(file, { mode: 0o600 });
  let socket: Socket | undefined;
  // A failed write (a full disk) ends the reading below with its error.
  out.on("error", (error) => socket?.destroy(error));
  try {
    // Opened before anything can fail, so the removal below cannot come before the file exists.
    await once(out, "open");
    socket = connect(socketPath);
    await once(socket, "connect");
    socket.write(DUMP_REQUEST);
    let head = Buffer.alloc(0);
    let header: z.infer<typeof dumpHeader> | undefined;
    let received = 0;
    for await (const chunk of socket as AsyncIterable<Buffer>) {
      let data = chunk;
      if (!header) {
        head = Buffer.concat([head, chunk]);
        const newline = head.indexOf(0x0a);
        if (newline === -1) {
          if (head.length > MAX_HEADER_BYTES)
            throw new LiveDumpError(`it answered something else than a dump on ${socketPath}`);
          continue;
        }
        header = parseHeader(head.subarray(0, newline), socketPath);
        if (!header.ok) throw new LiveDumpError(header.message ?? "no reason given");
        data = head.subarray(newline + 1);
      }
      received += data.length;
      if (!out.write(data)) await once(out, "drain");
    }
    if (!header) throw new LiveDumpError("it closed the connection without an answer");
    out.end();
    await once(out, "close");
    if (received !== header.bytes) throw new LiveDumpError(`received ${received} of ${header.bytes} bytes`);
    return true;
  } catch (error) {
    socket?.destroy();
    out.destroy();
    await rm(file, { force: true });
    throw error;
  }
}

function parseHeader(line: Buffer, socketPath: string): z.infer<typeof dumpHeader> {
  try {
    return dumpHeader.parse(JSON.parse(line.toString("utf8")));
  } catch {
    throw new LiveDumpError(`it answered something else than a dump on ${socketPath}`);
  }
}

/** Whether a Hearth answers on `dataDir`'s socket (restore refuses to write under a running one). */
export function isHearthRunning(dataDir: string): Promise<boolean> {
  const socketPath = backupSocketPath(dataDir);
  return Buffer.byteLength(socketPath) > MAX_SOCKET_PATH ? Promise.resolve(false) : answers(socketPath);
}
