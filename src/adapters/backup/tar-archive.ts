import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip, type Gzip } from "node:zlib";

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

const BLOCK = 512;

function writeField(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value.slice(0, length), offset, length, "utf8");
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, "0")}\0`;
}

/** Splits a long path into ustar's prefix (155) and name (100) fields. */
function splitPath(entryPath: string): { prefix: string; name: string } {
  if (Buffer.byteLength(entryPath) <= 100) return { prefix: "", name: entryPath };
  const slash = entryPath.lastIndexOf("/", 155);
  const name = entryPath.slice(slash + 1);
  if (slash <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(entryPath.slice(0, slash)) > 155) {
    throw new ArchiveFormatError(`path too long for the archive: ${entryPath}`);
  }
  return { prefix: entryPath.slice(0, slash), name };
}

function header(entry: { path: string; mode?: number | undefined }, size: number, mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { prefix, name } = splitPath(entry.path);
  writeField(block, 0, 100, name);
  writeField(block, 100, 8, octal(entry.mode ?? 0o644, 8));
  writeField(block, 108, 8, octal(0, 8));
  writeField(block, 116, 8, octal(0, 8));
  writeField(block, 124, 12, octal(size, 12));
  writeField(block, 136, 12, octal(mtime, 12));
  block.fill(" ", 148, 156);
  writeField(block, 156, 1, "0");
  writeField(block, 257, 6, "ustar\0");
  writeField(block, 263, 2, "00");
  writeField(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeField(block, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

/** An archive entry whose bytes are a file on disk, read a piece at a time as the archive is written. */
export interface ArchiveFileEntry {
  path: string;
  /** The file whose bytes the entry holds. */
  file: string;
  mode?: number;
}

/** Writes to the gzip stream, waiting when it asks the writer to (`once` rejects if the file's write fails meanwhile). */
async function put(gzip: Gzip, data: Buffer): Promise<void> {
  if (gzip.destroyed) throw gzip.errored ?? new Error("the archive's stream was closed");
  if (!gzip.write(data)) await once(gzip, "drain");
}

async function putFile(gzip: Gzip, entry: ArchiveFileEntry, mtime: number): Promise<number> {
  const handle = await open(entry.file, "r");
  try {
    const size = (await handle.stat()).size;
    await put(gzip, header(entry, size, mtime));
    for (let at = 0; at < size; ) {
      // A fresh buffer per piece: gzip may still hold the last one when the next is read.
      const piece = Buffer.allocUnsafe(Math.min(1024 * 1024, size - at));
      const { bytesRead } = await handle.read(piece, 0, piece.length, at);
      if (bytesRead === 0) throw new Error(`${entry.file} shrank while it was archived`);
      await put(gzip, piece.subarray(0, bytesRead));
      at += bytesRead;
    }
    return size;
  } finally {
    await handle.close();
  }
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
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file, { mode: 0o600 }));
  try {
    for (const entry of entries) {
      let size: number;
      if ("file" in entry) {
        size = await putFile(gzip, entry, mtime);
      } else {
        size = entry.data.byteLength;
        await put(gzip, header(entry, size, mtime));
        await put(gzip, Buffer.from(entry.data));
      }
      const padding = (BLOCK - (size % BLOCK)) % BLOCK;
      if (padding) await put(gzip, Buffer.alloc(padding));
    }
    await put(gzip, Buffer.alloc(BLOCK * 2));
    gzip.end();
  } catch (error) {
    gzip.destroy(error as Error);
  }
  await written;
}

function readString(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
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
  let header = Buffer.alloc(0);
  let sink: ArchivePieceSink | null = null;
  let remaining = 0;
  let padding = 0;
  let ended = false;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      for (let at = 0; at < chunk.length && !ended; ) {
        if (remaining > 0) {
          const take = Math.min(remaining, chunk.length - at);
          if (sink) await sink(chunk.subarray(at, at + take));
          at += take;
          remaining -= take;
        } else if (padding > 0) {
          const take = Math.min(padding, chunk.length - at);
          at += take;
          padding -= take;
        } else {
          const take = Math.min(BLOCK - header.length, chunk.length - at);
          header = Buffer.concat([header, chunk.subarray(at, at + take)]);
          at += take;
          if (header.length < BLOCK) continue;
          const block = header;
          header = Buffer.alloc(0);
          if (block.every((byte) => byte === 0)) {
            ended = true; // the zero blocks that end the archive
            break;
          }
          if (readString(block, 257, 5) !== "ustar")
            throw new ArchiveFormatError("not a tar archive (no ustar header)");
          const size = Number.parseInt(readString(block, 124, 12).trim() || "0", 8);
          if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveFormatError("an entry's size is unreadable");
          const type = readString(block, 156, 1) || "0";
          const prefix = readString(block, 345, 155);
          const name = readString(block, 0, 100);
          sink =
            type === "0"
              ? sinkFor({
                  path: safePath(prefix ? `${prefix}/${name}` : name),
                  size,
                  mode: Number.parseInt(readString(block, 100, 8).trim() || "644", 8),
                })
              : null;
          remaining = size;
          padding = (BLOCK - (size % BLOCK)) % BLOCK;
        }
      }
      if (ended) break;
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
  if (remaining > 0 || header.length > 0) throw new ArchiveFormatError("truncated archive");
}
