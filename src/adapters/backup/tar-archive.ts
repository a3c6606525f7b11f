import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";
import { putTar, putTarFile, TarReader, tarHeader, tarPadding, writeTar } from "../archive/ustar.js";

/** One file in an archive: a path with forward slashes, relative, and its bytes. */
export interface ArchiveEntry {
  path: string;
  data: Uint8Array;
  /** Permission bits (0o600 for secrets); 0o644 when absent. */
  mode?: number;
}

/** The archive is not a gzip'd tar Hearth can read, or holds a path that would escape its target. */
export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArchiveFormatError";
  }
}

function header(entry: { path: string; mode?: number | undefined }, size: number, mtime: number): Buffer {
  return tarHeader(
    { path: entry.path, type: "0", mode: entry.mode ?? 0o644, size, mtime },
    (long) => new ArchiveFormatError(`path too long for the archive: ${long}`),
  );
}

/** An archive entry whose bytes are a file on disk, read a piece at a time as the archive is written. */
export interface ArchiveFileEntry {
  path: string;
  /** The file whose bytes the entry holds. */
  file: string;
  mode?: number;
}

/**
 * Writes a gzip'd ustar archive of `entries` (regular files only, readable by `tar -xzf`) to
 * `file` (mode 0600) as a stream: an entry given as a file is read from disk a piece at a time,
 * so the memory a backup takes does not grow with the database it holds.
 */
export async function writeArchive(
  file: string,
  entries: readonly (ArchiveEntry | ArchiveFileEntry)[],
  now: Date = new Date(),
): Promise<void> {
  const mtime = Math.floor(now.getTime() / 1000);
  await writeTar(file, async (gzip) => {
    for (const entry of entries) {
      if ("file" in entry) {
        await putTarFile(gzip, entry.file, (size) => header(entry, size, mtime), entry.file);
        continue;
      }
      const size = entry.data.byteLength;
      await putTar(gzip, header(entry, size, mtime));
      await putTar(gzip, Buffer.from(entry.data));
      const padding = tarPadding(size);
      if (padding) await putTar(gzip, Buffer.alloc(padding));
    }
  });
}

/** A relative path that stays inside the directory it is extracted into. */
function safePath(entryPath: string): string {
  const parts = entryPath.split("/").filter((part) => part !== "" && part !== ".");
  if (entryPath.startsWith("/") || parts.includes("..") || parts.length === 0) {
    throw new ArchiveFormatError(`refusing an archive entry outside its directory: ${entryPath}`);
  }
  return parts.join("/");
}

/** A regular file of an archive, as its header describes it. */
export interface ArchiveEntryInfo {
  path: string;
  size: number;
  mode: number;
}

/** Takes an entry's bytes a piece at a time (awaited: the archive is read no faster). */
export type ArchivePieceSink = (piece: Buffer) => Promise<void> | void;

/**
 * Reads the gzip'd tar in `file` as a stream. For each regular file, `sinkFor` says where its
 * bytes go, or null to pass over them; directories and other entry types are passed over. The
 * memory it takes does not grow with the archive.
 */
export async function readArchive(
  file: string,
  sinkFor: (entry: ArchiveEntryInfo) => ArchivePieceSink | null,
): Promise<void> {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  const reader = new TarReader(
    (entry) => {
      if (entry.type !== "0") return null;
      const piece = sinkFor({ path: safePath(entry.path), size: entry.size, mode: entry.mode });
      return piece ? { piece } : null;
    },
    (problem) => new ArchiveFormatError(`the archive ${problem}`),
  );
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      await reader.write(chunk);
      if (reader.ended) break;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // zlib's own errors (not gzip, or a gzip stream cut short) carry Z_* codes.
    if (code === "Z_BUF_ERROR") throw new ArchiveFormatError("truncated archive (its compressed data ends early)");
    if (typeof code === "string" && code.startsWith("Z_"))
      throw new ArchiveFormatError("not a gzip-compressed archive");
    throw error;
  } finally {
    source.destroy();
    gunzip.destroy();
  }
  if (!reader.ended) reader.finish();
}
