import { chmod, mkdir, unlink } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import path from "node:path";
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
 * Listens on DATA_DIR's socket and answers each connection with one dump (a header line of
 * JSON, then the bytes). Fails with DataDirInUseError when another Hearth already answers
 * there; a socket file left behind by a crash is replaced.
 */
export async function serveBackups(
  dataDir: string,
  dump: () => Promise<Uint8Array>,
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
  const server: Server = createServer((socket) => {
    socket.on("error", (error) => logger.warn("Backup request failed", { error: error.message }));
    dump().then(
      (bytes) => {
        socket.write(`${JSON.stringify({ ok: true, bytes: bytes.byteLength })}\n`);
        socket.end(bytes);
        logger.info("Database dumped for a backup", { bytes: bytes.byteLength });
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        socket.end(`${JSON.stringify({ ok: false, message })}\n`);
        logger.error("Database dump for a backup failed", { error: message });
      },
    );
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
 * Asks the Hearth running on `dataDir` for a dump of its embedded database. Resolves to null
 * when no Hearth answers there (the database may then be opened directly).
 */
export async function requestLiveDump(dataDir: string): Promise<Uint8Array | null> {
  const socketPath = backupSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH || !(await answers(socketPath))) return null;
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(socketPath);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("end", () => resolve(Buffer.concat(chunks)));
    socket.once("error", reject);
  });
  const newline = received.indexOf(0x0a);
  if (newline === -1) throw new LiveDumpError("it closed the connection without an answer");
  let header: z.infer<typeof dumpHeader>;
  try {
    header = dumpHeader.parse(JSON.parse(received.subarray(0, newline).toString("utf8")));
  } catch {
    throw new LiveDumpError(`it answered something else than a dump on ${socketPath}`);
  }
  if (!header.ok) throw new LiveDumpError(header.message ?? "no reason given");
  const bytes = received.subarray(newline + 1);
  if (bytes.byteLength !== header.bytes)
    throw new LiveDumpError(`received ${bytes.byteLength} of ${header.bytes} bytes`);
  return bytes;
}

/** Whether a Hearth answers on `dataDir`'s socket (restore refuses to write under a running one). */
export function isHearthRunning(dataDir: string): Promise<boolean> {
  const socketPath = backupSocketPath(dataDir);
  return Buffer.byteLength(socketPath) > MAX_SOCKET_PATH ? Promise.resolve(false) : answers(socketPath);
}
