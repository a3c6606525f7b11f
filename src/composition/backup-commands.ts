import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import {
  backupSocketUsable,
  isHearthRunning,
  LiveDumpError,
  requestLiveDump,
} from "../adapters/backup/backup-socket.js";
import {
  BackupFormatError,
  type BackupManifest,
  readBackup,
  RestoreTargetNotEmptyError,
  restoreBackup,
  writeBackup,
} from "../adapters/backup/data-dir-backup.js";
import { USAGE_ERROR } from "../adapters/cli/cli.js";
import { openDatabase, restoreEmbeddedDatabase } from "../adapters/persistence/database.js";
import { ConfigError, loadConfig } from "./config.js";
import { HEARTH_VERSION } from "./version.js";

export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CommandOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** A backup this environment cannot take safely (no database there, no way to tell if Hearth runs). */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefusedError";
  }
}

/** Failures a person can act on: printed as their message alone, exit 1. */
const EXPECTED_FAILURES = [
  ConfigError,
  BackupFormatError,
  BackupRefusedError,
  RestoreTargetNotEmptyError,
  LiveDumpError,
];

function fail(error: unknown, what: string, output: CommandOutput): number {
  if (EXPECTED_FAILURES.some((type) => error instanceof type)) output.err((error as Error).message);
  else output.err(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

/** `<file>` plus the flags in `allowed`; null (a usage error was printed) when the line says anything else. */
function parseArguments(command: string, args: string[], allowed: string[], output: CommandOutput) {
  const flags = args.filter((arg) => arg.startsWith("-"));
  const files = args.filter((arg) => !arg.startsWith("-"));
  const unknown = flags.filter((flag) => !allowed.includes(flag));
  if (files.length !== 1 || unknown.length > 0) {
    const usage = `Usage: hearth ${command} <file>${allowed.map((flag) => ` [${flag}]`).join("")}`;
    output.err(unknown.length > 0 ? `hearth ${command}: unknown option ${unknown.join(", ")}. ${usage}` : usage);
    return null;
  }
  return { file: files[0] as string, flags: new Set(flags) };
}

/** Writes the embedded database's dump to `file`: from the running Hearth when one answers, else read directly. */
async function dumpEmbeddedDatabase(dataDir: string, file: string, output: CommandOutput): Promise<void> {
  // Without the socket a running Hearth cannot be told from a stopped one, and opening PGlite
  // beside a running one would damage it.
  if (!backupSocketUsable(dataDir)) {
    throw new BackupRefusedError(
      `DATA_DIR's path (${path.resolve(dataDir)}) is too long for Hearth's backup socket, so hearth backup cannot tell whether Hearth runs on it; use a shorter path (a symbolic link will do)`,
    );
  }
  if (await requestLiveDump(dataDir, file)) {
    output.out("Dumped the embedded database from the running Hearth");
    return;
  }
  if (!existsSync(path.join(path.resolve(dataDir), "pglite", "PG_VERSION"))) {
    throw new BackupRefusedError(`There is no embedded database in DATA_DIR ${path.resolve(dataDir)} to back up`);
  }
  const database = await openDatabase({ dataDir });
  try {
    if (!database.dumpEmbedded) throw new Error("the embedded database cannot be dumped");
    await database.dumpEmbedded(file);
  } finally {
    await database.close();
  }
}

/**
 * `hearth backup <file>`: one archive of the embedded database (a consistent dump, also while
 * Hearth runs) and DATA_DIR's files. With DATABASE_URL the database is left to pg_dump.
 */
export async function backupCommand(args: string[], output: CommandOutput = consoleOutput): Promise<number> {
  const parsed = parseArguments("backup", args, [], output);
  if (!parsed) return USAGE_ERROR;
  try {
    const config = loadConfig(process.env, { inventory: false });
    // The dump waits on disk beside the archive, which takes it a piece at a time: neither is
    // held in memory, however large the household's photos make the database.
    const target = path.resolve(parsed.file);
    const databaseDump = config.DATABASE_URL ? null : `${target}.database-${randomUUID()}.partial`;
    let manifest: BackupManifest;
    try {
      if (databaseDump) {
        await mkdir(path.dirname(target), { recursive: true });
        await dumpEmbeddedDatabase(config.DATA_DIR, databaseDump, output);
      }
      manifest = await writeBackup(parsed.file, {
        dataDir: config.DATA_DIR,
        stateFile: config.STATE_FILE_PATH,
        deviceRegistryFile: config.DEVICE_REGISTRY_FILE_PATH,
        hearthVersion: HEARTH_VERSION,
        databaseDump,
      });
    } finally {
      if (databaseDump) await rm(databaseDump, { force: true });
    }
    const size = (await stat(parsed.file)).size;
    output.out(
      `Backed up ${manifest.files.length} files${databaseDump ? " with the embedded database" : ""} to ${path.resolve(parsed.file)} (${Math.ceil(size / 1024)} KiB)`,
    );
    if (!databaseDump) {
      output.out(
        "DATABASE_URL is set: the archive holds DATA_DIR's files only; back up PostgreSQL with pg_dump (docs/backup.md)",
      );
    }
    return 0;
  } catch (error) {
    return fail(error, "Backup", output);
  }
}

/**
 * `hearth restore <file> [--force]`: restores an archive of `hearth backup` into DATA_DIR,
 * which must be empty (or missing) unless --force. Never while a Hearth runs on it.
 */
export async function restoreCommand(args: string[], output: CommandOutput = consoleOutput): Promise<number> {
  const parsed = parseArguments("restore", args, ["--force"], output);
  if (!parsed) return USAGE_ERROR;
  try {
    const config = loadConfig(process.env, { inventory: false });
    if (await isHearthRunning(config.DATA_DIR)) {
      output.err(`Hearth is running on DATA_DIR ${path.resolve(config.DATA_DIR)}; stop it before restoring`);
      return 1;
    }
    const backup = await readBackup(parsed.file);
    await restoreBackup(backup, {
      dataDir: config.DATA_DIR,
      stateFile: config.STATE_FILE_PATH,
      deviceRegistryFile: config.DEVICE_REGISTRY_FILE_PATH,
      force: parsed.flags.has("--force"),
      restoreDatabase: restoreEmbeddedDatabase,
    });
    output.out(
      `Restored the backup of ${backup.manifest.createdAt} (Hearth ${backup.manifest.hearthVersion}) into ${path.resolve(config.DATA_DIR)}`,
    );
    if (backup.manifest.database === "postgres") {
      output.out(
        "The backup was taken on PostgreSQL: restore the database from your pg_dump with pg_restore (docs/backup.md)",
      );
    } else if (config.DATABASE_URL) {
      output.out("DATABASE_URL is set: Hearth will use PostgreSQL, not the embedded database restored into DATA_DIR");
    }
    return 0;
  } catch (error) {
    return fail(error, "Restore", output);
  }
}
