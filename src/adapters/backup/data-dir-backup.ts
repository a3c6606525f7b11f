import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { z } from "zod";
import {
  ArchiveFormatError,
  type ArchiveEntry,
  type ArchiveFileEntry,
  readArchive,
  writeArchive,
} from "./tar-archive.js";
import { IMPORT_SPOOL_DIR } from "../../ports/data-dir.js";
import { BACKUP_SOCKET_NAME, LIVE_DUMP_PREFIX } from "./backup-socket.js";

/**
 * A Hearth backup is one gzip'd tar:
 *
 *   hearth-backup.json        what it holds (validated on restore)
 *   database/pglite.tar.gz    the embedded database (PGlite's own dump), when Hearth ran on PGlite
 *   data/…                    every other file of DATA_DIR: state, device registry, generated
 *                             secrets (jwt-secret, http-token), HomeKit pairings, …
 *   files/state.json          the state file and the device registry when they live outside
 *   files/device-registry.json  DATA_DIR (STATE_FILE_PATH, DEVICE_REGISTRY_FILE_PATH)
 */
const MANIFEST = "hearth-backup.json";
const DATABASE_ENTRY = "database/pglite.tar.gz";
const EXTERNAL_FILES = { stateFile: "files/state.json", deviceRegistryFile: "files/device-registry.json" } as const;
/**
 * DATA_DIR entries a backup leaves out: the live database (dumped instead), the running
 * process's socket, and the files of imports being read.
 */
const NOT_BACKED_UP = new Set(["pglite", BACKUP_SOCKET_NAME, IMPORT_SPOOL_DIR]);

const manifestSchema = z.object({
  format: z.literal(1),
  hearthVersion: z.string(),
  createdAt: z.string(),
  database: z.enum(["pglite", "postgres"]),
  files: z.array(z.string()),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** A backup that cannot be restored: not an archive, not Hearth's, or missing a part its manifest names. */
export class BackupFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupFormatError";
  }
}

/** The target of a restore holds data and --force was not given. */
export class RestoreTargetNotEmptyError extends Error {
  constructor(readonly occupied: string[]) {
    super(`Refusing to restore over existing data: ${occupied.join(", ")} (use --force to replace it)`);
    this.name = "RestoreTargetNotEmptyError";
  }
}

/** Where a backup's parts come from, or go to on restore. */
export interface DataLocations {
  dataDir: string;
  /** The state file (STATE_FILE_PATH); backed up separately only when it lies outside dataDir. */
  stateFile?: string;
  /** The device registry file (DEVICE_REGISTRY_FILE_PATH); likewise. */
  deviceRegistryFile?: string;
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(path.resolve(dir), path.resolve(file));
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

async function readIfPresent(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

async function dataDirEntries(dataDir: string): Promise<ArchiveEntry[]> {
  const root = path.resolve(dataDir);
  const listing = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    },
  );
  const entries: ArchiveEntry[] = [];
  for (const entry of listing) {
    if (!entry.isFile()) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (NOT_BACKED_UP.has(relative[0] as string) || (relative[0] as string).startsWith(LIVE_DUMP_PREFIX)) continue;
    const data = await readIfPresent(path.join(entry.parentPath, entry.name));
    // A file removed while we listed (a state file being replaced) is simply not there.
    if (data) entries.push({ path: ["data", ...relative].join("/"), data, mode: 0o600 });
  }
  return entries;
}

export interface WriteBackupOptions extends DataLocations {
  hearthVersion: string;
  /** The file holding the PGlite dump, or null when the database is PostgreSQL (backed up with pg_dump). */
  databaseDump: string | null;
  now?: Date;
}

/** Writes the archive to `file` (through a temporary file, so a failed backup leaves no half archive). */
export async function writeBackup(file: string, options: WriteBackupOptions): Promise<BackupManifest> {
  const entries: (ArchiveEntry | ArchiveFileEntry)[] = await dataDirEntries(options.dataDir);
  if (options.databaseDump) entries.push({ path: DATABASE_ENTRY, file: options.databaseDump, mode: 0o600 });
  for (const [key, entryPath] of Object.entries(EXTERNAL_FILES) as [keyof typeof EXTERNAL_FILES, string][]) {
    const location = options[key];
    if (!location || isInside(options.dataDir, location)) continue;
    const data = await readIfPresent(location);
    if (data) entries.push({ path: entryPath, data, mode: 0o600 });
  }
  const now = options.now ?? new Date();
  const manifest: BackupManifest = {
    format: 1,
    hearthVersion: options.hearthVersion,
    createdAt: now.toISOString(),
    database: options.databaseDump ? "pglite" : "postgres",
    files: entries.map((entry) => entry.path),
  };
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await writeArchive(
      partial,
      [{ path: MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }, ...entries],
      now,
    );
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, target);
  return manifest;
}

export interface Backup {
  manifest: BackupManifest;
  /** The archive, which {@link backupDatabase} reads the embedded database's dump from. */
  file: string;
  /** Whether it holds the embedded database's dump (taken on PGlite). */
  hasDatabase: boolean;
  /** DATA_DIR files, paths relative to DATA_DIR. */
  dataFiles: ArchiveEntry[];
  stateFile: Uint8Array | null;
  deviceRegistryFile: Uint8Array | null;
}

/**
 * Most bytes of files other than the database that reading a backup keeps in memory, all files
 * together (DATA_DIR's state, secrets and pairings take kilobytes): an archive whose headers ask
 * for more is refused instead of filling the memory.
 */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

/**
 * Reads and checks an archive written by writeBackup. Only the small files are kept; the
 * database's dump is passed over here and read by {@link backupDatabase} as it is restored,
 * so a large household's photos are never in memory.
 */
export async function readBackup(file: string): Promise<Backup> {
  const entries: ArchiveEntry[] = [];
  let hasDatabase = false;
  let kept = 0;
  try {
    await readArchive(file, (entry) => {
      if (entry.path === DATABASE_ENTRY) {
        hasDatabase = true;
        return null;
      }
      kept += entry.size;
      if (kept > MAX_KEPT_BYTES) {
        throw new ArchiveFormatError(
          `its files besides the database are larger than a Hearth backup's (${kept} bytes)`,
        );
      }
      const data = Buffer.alloc(entry.size);
      let filled = 0;
      entries.push({ path: entry.path, data, mode: entry.mode });
      return (piece) => {
        piece.copy(data, filled);
        filled += piece.length;
      };
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new BackupFormatError(`No backup at ${path.resolve(file)}`);
    }
    if (error instanceof ArchiveFormatError)
      throw new BackupFormatError(`${path.resolve(file)} is not a Hearth backup: ${error.message}`);
    throw error;
  }
  const byPath = new Map(entries.map((entry) => [entry.path, entry]));
  const manifestEntry = byPath.get(MANIFEST);
  if (!manifestEntry)
    throw new BackupFormatError(`${path.resolve(file)} is not a Hearth backup: it has no ${MANIFEST}`);
  let manifest: BackupManifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(Buffer.from(manifestEntry.data).toString("utf8")));
  } catch {
    throw new BackupFormatError(`${path.resolve(file)} has a ${MANIFEST} this Hearth cannot read`);
  }
  const missing = manifest.files.filter((name) => !byPath.has(name) && !(name === DATABASE_ENTRY && hasDatabase));
  if (missing.length > 0) throw new BackupFormatError(`The backup is incomplete: ${missing.join(", ")} missing`);
  if (manifest.database === "pglite" && !hasDatabase) {
    throw new BackupFormatError(`The backup is incomplete: ${DATABASE_ENTRY} missing`);
  }
  return {
    manifest,
    file: path.resolve(file),
    hasDatabase,
    dataFiles: entries
      .filter((entry) => entry.path.startsWith("data/"))
      .map((entry) => ({ ...entry, path: entry.path.slice("data/".length) })),
    stateFile: byPath.get(EXTERNAL_FILES.stateFile)?.data ?? null,
    deviceRegistryFile: byPath.get(EXTERNAL_FILES.deviceRegistryFile)?.data ?? null,
  };
}

/**
 * The embedded database's dump in `backup`, read from its archive as it is consumed (with the
 * archive's backpressure). A consumer that stops early destroys it, which stops the reading.
 */
export function backupDatabase(backup: Backup): Readable {
  const out = new PassThrough();
  // Its reader sees an error through its reads; without a listener, one emitted while nobody
  // reads would end the process.
  out.on("error", () => {});
  readArchive(backup.file, (entry) =>
    entry.path === DATABASE_ENTRY
      ? async (piece) => {
          if (out.destroyed) throw new Error("the restore stopped reading the backup's database");
          if (!out.write(piece)) await once(out, "drain");
        }
      : null,
  ).then(
    () => out.end(),
    (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}

export interface RestoreOptions extends DataLocations {
  /** Replace what is there instead of refusing. */
  force: boolean;
  /**
   * Creates `<dataDir>/pglite` from the dump, or replaces what is there only once the dump has
   * proved good (persistence's restoreEmbeddedDatabase).
   */
  restoreDatabase(dataDir: string, dump: Readable): Promise<void>;
}

/** What restoreBackup would overwrite: a non-empty DATA_DIR, and existing external files it restores. */
async function occupiedTargets(backup: Backup, options: RestoreOptions): Promise<string[]> {
  const occupied: string[] = [];
  const existing = await readdir(path.resolve(options.dataDir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  if (existing.length > 0) occupied.push(`DATA_DIR ${path.resolve(options.dataDir)} is not empty`);
  const external: [Uint8Array | null, string | undefined][] = [
    [backup.stateFile, options.stateFile],
    [backup.deviceRegistryFile, options.deviceRegistryFile],
  ];
  for (const [data, location] of external) {
    if (data && location && !isInside(options.dataDir, location) && (await readIfPresent(location)) !== null) {
      occupied.push(`${path.resolve(location)} exists`);
    }
  }
  return occupied;
}

/** Restores a backup into `options.dataDir` (and the external file locations). */
export async function restoreBackup(backup: Backup, options: RestoreOptions): Promise<void> {
  const occupied = await occupiedTargets(backup, options);
  if (occupied.length > 0 && !options.force) throw new RestoreTargetNotEmptyError(occupied);
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  if (backup.hasDatabase) await options.restoreDatabase(dataDir, backupDatabase(backup));
  for (const entry of backup.dataFiles) {
    const target = path.join(dataDir, ...entry.path.split("/"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, entry.data);
    await chmod(target, entry.mode ?? 0o600);
  }
  const restored = new Set(backup.dataFiles.map((entry) => path.join(dataDir, ...entry.path.split("/"))));
  const external: [Uint8Array | null, string | undefined][] = [
    [backup.stateFile, options.stateFile],
    [backup.deviceRegistryFile, options.deviceRegistryFile],
  ];
  for (const [data, location] of external) {
    // A file that lived outside DATA_DIR goes where this environment keeps it, even inside DATA_DIR.
    if (!data || !location || restored.has(path.resolve(location))) continue;
    await mkdir(path.dirname(path.resolve(location)), { recursive: true });
    await writeFile(path.resolve(location), data, { mode: 0o600 });
  }
}
