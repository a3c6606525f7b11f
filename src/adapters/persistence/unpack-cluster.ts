import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { type FileHandle, mkdir, open, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip, type Gunzip, type Gzip } from "node:zlib";

const BLOCK = 512;

function text(header: Buffer, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString("utf8");
}

function octal(header: Buffer, start: number, length: number): number {
  const value = text(header, start, length).trim();
  return value === "" ? 0 : Number.parseInt(value, 8);
}

/**
 * Writes the cluster of a gzip'd tar, as PGlite's `dumpDataDir("gzip")` makes it (ustar,
 * directories and regular files, names from the cluster's root), into `target`, which must
 * not exist. It is unpacked beside `target` and renamed into place, so a start cut short
 * leaves no half cluster that the next one would take for a database.
 *
 * PGlite's own `loadDataDir` does this inside the WebAssembly instance, which then keeps the
 * archive's 40 MB and its copies in the heap it never gives back (about 150 MB more at a first
 * start, and after it); unpacked here, a first start opens the cluster like any later one. The
 * archive is inflated as a stream, a chunk at a time: inflated whole, its 40 MB and the pieces
 * zlib assembles it from stayed in the process's RSS (about 55 MB) after they were freed.
 *
 * `source` names the archive in error messages: the packaged template, or a backup's database.
 */
export async function unpackCluster(
  archive: Uint8Array | Readable,
  target: string,
  source = "The database template",
): Promise<void> {
  const staging = `${target}.unpacking-${randomUUID()}`;
  await mkdir(staging, { recursive: true, mode: 0o700 });
  const writer = new ClusterWriter(staging, source);
  const inflate = createGunzip({ chunkSize: 64 * 1024 });
  try {
    if (archive instanceof Uint8Array) inflate.end(archive);
    else void feed(archive, inflate);
    try {
      for await (const chunk of inflate) await writer.write(chunk as Buffer);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // zlib's own errors (a damaged or cut-short gzip stream) carry Z_* codes.
      if (typeof code === "string" && code.startsWith("Z_")) {
        throw new Error(`${source} is damaged: ${(error as Error).message}`);
      }
      throw error;
    }
    writer.finish();
    await rename(staging, target);
  } catch (error) {
    // A stream stops being read here: destroyed, so whatever feeds it stops too.
    inflate.destroy();
    // With the error, so a feeder waiting for the stream to drain stops waiting.
    if (!(archive instanceof Uint8Array)) archive.destroy(error instanceof Error ? error : new Error(String(error)));
    await writer.abandon();
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Passes a stream's pieces to the gunzip, as fast as it takes them; a failing stream fails it. */
async function feed(archive: Readable, inflate: Gunzip): Promise<void> {
  try {
    for await (const piece of archive as AsyncIterable<Buffer>) {
      if (inflate.destroyed) return;
      if (!inflate.write(piece)) await once(inflate, "drain");
    }
    inflate.end();
  } catch (error) {
    inflate.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Writes a tar stream's directories and files under `root` as its chunks arrive. */
class ClusterWriter {
  private header = Buffer.alloc(0);
  private name = "";
  private file: FileHandle | undefined;
  /** Bytes of the current file still to come, then the padding to its next 512-byte block. */
  private remaining = 0;
  private padding = 0;
  private ended = false;

  constructor(
    private readonly root: string,
    private readonly source: string,
  ) {}

  async write(chunk: Buffer): Promise<void> {
    let at = 0;
    while (at < chunk.length && !this.ended) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        await writeAll(this.file as FileHandle, chunk.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) await this.closeFile();
      } else if (this.padding > 0) {
        const take = Math.min(this.padding, chunk.length - at);
        at += take;
        this.padding -= take;
      } else {
        const take = Math.min(BLOCK - this.header.length, chunk.length - at);
        this.header = Buffer.concat([this.header, chunk.subarray(at, at + take)]);
        at += take;
        if (this.header.length === BLOCK) {
          const header = this.header;
          this.header = Buffer.alloc(0);
          await this.entry(header);
        }
      }
    }
  }

  /** After the last chunk: an archive that stops inside an entry is cut short. */
  finish(): void {
    if (this.header.length > 0 || this.remaining > 0 || this.padding > 0) {
      throw new Error(`${this.source} is cut short at ${this.name || "its first entry"}`);
    }
  }

  async abandon(): Promise<void> {
    await this.closeFile();
  }

  private async entry(header: Buffer): Promise<void> {
    const name = text(header, 0, 100);
    if (name === "") {
      this.ended = true; // the two zero blocks that end the archive
      return;
    }
    this.name = name;
    const prefix = text(header, 257, 6) === "ustar" ? text(header, 345, 155) : "";
    const size = octal(header, 124, 12);
    const type = text(header, 156, 1) || "0";
    const relative = path.posix.normalize(`${prefix ? `${prefix}/` : ""}${name}`).replace(/^\/+/, "");
    if (relative === "" || relative === "." || relative.startsWith("../") || !Number.isSafeInteger(size)) {
      throw new Error(`${this.source} has an entry outside the cluster: ${name}`);
    }
    const destination = path.join(this.root, ...relative.split("/"));
    if (type === "5") {
      await mkdir(destination, { recursive: true, mode: 0o700 });
    } else if (type === "0") {
      await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
      this.file = await open(destination, "w", 0o600);
      this.remaining = size;
      this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
      if (size === 0) await this.closeFile();
    } else {
      throw new Error(`${this.source} has an entry of type ${type}: ${name}`);
    }
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }
}

async function writeAll(file: FileHandle, data: Buffer): Promise<void> {
  for (let written = 0; written < data.length; ) {
    written += (await file.write(data, written, data.length - written)).bytesWritten;
  }
}

/**
 * Writes a gzip'd tar of the cluster in `dataPath` to `file` (mode 0600), in the layout PGlite's
 * `dumpDataDir("gzip")` writes (entries named from the cluster's root, "/PG_VERSION",
 * directories before what they hold), which {@link unpackCluster} and PGlite's `loadDataDir`
 * read. The caller keeps the database still while it runs (no statement, after a CHECKPOINT).
 *
 * Read from disk and written to disk a piece at a time, where `dumpDataDir` copies the cluster
 * into the WebAssembly heap and builds the archive in memory: a live backup of a 51 MB database
 * took a running Hearth from 166 MB to a 481 MB peak that way, and to 229 MB this way
 * (docs/performance.md).
 */
export async function packCluster(dataPath: string, file: string): Promise<void> {
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file, { mode: 0o600 }));
  const mtime = Math.floor(Date.now() / 1000);
  const visit = async (relative: string): Promise<void> => {
    const listing = await readdir(path.join(dataPath, relative), { withFileTypes: true });
    listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of listing) {
      const name = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await put(gzip, tarHeader(name, "5", 0, mtime));
        await visit(name);
      } else if (entry.isFile()) {
        await packFile(gzip, path.join(dataPath, name), name, mtime);
      }
    }
  };
  try {
    await visit("");
    await put(gzip, Buffer.alloc(BLOCK * 2));
    gzip.end();
  } catch (error) {
    gzip.destroy(error as Error);
  }
  try {
    await written;
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}

/** One regular file's header, bytes and padding; the size is the header's, read as the file is. */
async function packFile(gzip: Gzip, file: string, name: string, mtime: number): Promise<void> {
  const handle = await open(file, "r");
  try {
    const size = (await handle.stat()).size;
    await put(gzip, tarHeader(name, "0", size, mtime));
    for (let at = 0; at < size; ) {
      // A fresh buffer per piece: gzip may still hold the last one when the next is read.
      const piece = Buffer.allocUnsafe(Math.min(1024 * 1024, size - at));
      const { bytesRead } = await handle.read(piece, 0, piece.length, at);
      if (bytesRead === 0) throw new Error(`${name} shrank while it was archived`);
      await put(gzip, piece.subarray(0, bytesRead));
      at += bytesRead;
    }
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (padding) await put(gzip, Buffer.alloc(padding));
  } finally {
    await handle.close();
  }
}

/** Writes to the gzip stream, waiting when it asks the writer to (`once` rejects if the file's write fails meanwhile). */
async function put(gzip: Gzip, data: Buffer): Promise<void> {
  if (gzip.destroyed) throw gzip.errored ?? new Error("the archive's stream was closed");
  if (!gzip.write(data)) await once(gzip, "drain");
}

/** A ustar header: `name` from the cluster's root ("/base/1/112"), split into prefix and name when long. */
function tarHeader(name: string, type: "0" | "5", size: number, mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  let prefix = "";
  let rest = name;
  if (Buffer.byteLength(name) > 100) {
    const slash = name.lastIndexOf("/", 155);
    prefix = name.slice(0, slash);
    rest = name.slice(slash + 1);
    if (slash <= 0 || Buffer.byteLength(rest) > 100 || Buffer.byteLength(prefix) > 155) {
      throw new Error(`A database file's path is too long for the archive: ${name}`);
    }
  }
  const octalField = (value: number, length: number) => `${value.toString(8).padStart(length - 1, "0")}\0`;
  block.write(rest, 0, 100, "utf8");
  block.write(octalField(type === "5" ? 0o700 : 0o600, 8), 100);
  block.write(octalField(0, 8), 108);
  block.write(octalField(0, 8), 116);
  block.write(octalField(size, 12), 124);
  block.write(octalField(mtime, 12), 136);
  block.fill(" ", 148, 156);
  block.write(type, 156);
  block.write("ustar\0", 257);
  block.write("00", 263);
  block.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return block;
}
