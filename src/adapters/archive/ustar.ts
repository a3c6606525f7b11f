/**
 * The ustar (POSIX.1-1988 tar) blocks both of Hearth's archives are made of: a backup
 * (adapters/backup) and the embedded database's cluster (adapters/persistence). Each reads and
 * writes gzip'd tar as a stream, a piece at a time, so the memory an archive takes does not
 * grow with what it holds; each decides which entries it accepts.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createGzip, type Gzip } from "node:zlib";

/** Tar's block: headers take one, and every entry's bytes are padded to a whole number of them. */
export const TAR_BLOCK = 512;

/** The zero bytes after an entry of `size` bytes, up to its next block. */
export function tarPadding(size: number): number {
  return (TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK;
}

/** An entry's header as written: a regular file ("0") or a directory ("5"). */
export interface TarHeaderFields {
  /** Forward slashes; one over 100 bytes is split into ustar's prefix (155) and name (100). */
  path: string;
  type: "0" | "5";
  mode: number;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
}

function octalField(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, "0")}\0`;
}

/** A ustar header block; a path that fits neither the name nor prefix and name is refused with `tooLong`. */
export function tarHeader(fields: TarHeaderFields, tooLong: (path: string) => Error): Buffer {
  const block = Buffer.alloc(TAR_BLOCK);
  let prefix = "";
  let name = fields.path;
  if (Buffer.byteLength(name) > 100) {
    const slash = name.lastIndexOf("/", 155);
    prefix = name.slice(0, slash);
    name = name.slice(slash + 1);
    if (slash <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155) throw tooLong(fields.path);
  }
  block.write(name, 0, 100, "utf8");
  block.write(octalField(fields.mode, 8), 100);
  block.write(octalField(0, 8), 108);
  block.write(octalField(0, 8), 116);
  block.write(octalField(fields.size, 12), 124);
  block.write(octalField(fields.mtime, 12), 136);
  // The checksum is summed with its own field as spaces.
  block.fill(" ", 148, 156);
  block.write(fields.type, 156);
  block.write("ustar\0", 257);
  block.write("00", 263);
  block.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return block;
}

/** Writes to the gzip stream, waiting when it asks the writer to (`once` rejects if the file's write fails meanwhile). */
export async function putTar(gzip: Gzip, data: Buffer): Promise<void> {
  if (gzip.destroyed) throw gzip.errored ?? new Error("the archive's stream was closed");
  if (!gzip.write(data)) await once(gzip, "drain");
}

/**
 * Writes one regular file's header, bytes and padding, reading the file a piece at a time; the
 * header's size is the file's when it is opened, and a file that shrinks meanwhile is an error.
 * Returns the size.
 */
export async function putTarFile(
  gzip: Gzip,
  file: string,
  header: (size: number) => Buffer,
  label: string,
): Promise<number> {
  const handle = await open(file, "r");
  try {
    const size = (await handle.stat()).size;
    await putTar(gzip, header(size));
    for (let at = 0; at < size; ) {
      // A fresh buffer per piece: gzip may still hold the last one when the next is read.
      const piece = Buffer.allocUnsafe(Math.min(1024 * 1024, size - at));
      const { bytesRead } = await handle.read(piece, 0, piece.length, at);
      if (bytesRead === 0) throw new Error(`${label} shrank while it was archived`);
      await putTar(gzip, piece.subarray(0, bytesRead));
      at += bytesRead;
    }
    const padding = tarPadding(size);
    if (padding) await putTar(gzip, Buffer.alloc(padding));
    return size;
  } finally {
    await handle.close();
  }
}

/**
 * Writes a gzip'd tar to `file` (mode 0600): `fill` puts the entries, then the two zero blocks
 * that end an archive follow. A failure of `fill` or of the file's writing is thrown once both
 * have stopped; the half-written file is left to the caller.
 */
export async function writeTar(file: string, fill: (gzip: Gzip) => Promise<void>): Promise<void> {
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file, { mode: 0o600 }));
  try {
    await fill(gzip);
    await putTar(gzip, Buffer.alloc(TAR_BLOCK * 2));
    gzip.end();
  } catch (error) {
    gzip.destroy(error as Error);
  }
  await written;
}

/** An entry's header as read. */
export interface TarEntryHeader {
  /** The prefix and name joined, as the archive has it (unchecked: the reader's caller decides what it accepts). */
  path: string;
  /** The type flag: "0" a regular file, "5" a directory, others as tar defines them. */
  type: string;
  size: number;
  mode: number;
}

/** Where one entry's bytes go, a piece at a time (awaited: the archive is read no faster), and what ends it. */
export interface TarEntrySink {
  piece(data: Buffer): Promise<void> | void;
  end?(): Promise<void> | void;
}

/**
 * Reads an inflated tar stream as its chunks arrive: for each entry, `entry` says where its
 * bytes go, or null to pass over them. What cannot be a tar header is refused with `fail`.
 * Keeps one header block at most, whatever the archive's size.
 */
export class TarReader {
  private header = Buffer.alloc(0);
  private sink: TarEntrySink | null = null;
  /** Bytes of the current entry still to come, then the padding to its next block. */
  private remaining = 0;
  private padding = 0;
  /** The path of the entry last begun, for messages. */
  private current = "";
  /** Whether the zero block that ends the archive has been read; what follows it is not. */
  ended = false;

  constructor(
    private readonly entry: (header: TarEntryHeader) => Promise<TarEntrySink | null> | TarEntrySink | null,
    private readonly fail: (problem: string) => Error,
  ) {}

  async write(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length && !this.ended; ) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        await this.sink?.piece(chunk.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) await this.endEntry();
      } else if (this.padding > 0) {
        const take = Math.min(this.padding, chunk.length - at);
        at += take;
        this.padding -= take;
      } else {
        const take = Math.min(TAR_BLOCK - this.header.length, chunk.length - at);
        this.header = Buffer.concat([this.header, chunk.subarray(at, at + take)]);
        at += take;
        if (this.header.length < TAR_BLOCK) continue;
        const block = this.header;
        this.header = Buffer.alloc(0);
        await this.begin(block);
      }
    }
  }

  /** After the last chunk: an archive that stops inside an entry, or before its end, is cut short. */
  finish(): void {
    if (this.header.length > 0 || this.remaining > 0 || this.padding > 0)
      throw this.fail(`is truncated (it stops inside ${this.current || "its first entry"})`);
  }

  /** Ends the entry being read, if any (a file it writes is closed), after a failure. */
  async abandon(): Promise<void> {
    await this.endEntry();
  }

  private async begin(block: Buffer): Promise<void> {
    if (block.every((byte) => byte === 0)) {
      this.ended = true;
      return;
    }
    if (field(block, 257, 5) !== "ustar") throw this.fail("is not a tar archive (no ustar header)");
    const size = octalNumber(block, 124, 12, 0);
    if (!Number.isSafeInteger(size) || size < 0) throw this.fail("has an entry whose size is unreadable");
    const prefix = field(block, 345, 155);
    const name = field(block, 0, 100);
    this.current = prefix ? `${prefix}/${name}` : name;
    this.sink = await this.entry({
      path: this.current,
      type: field(block, 156, 1) || "0",
      size,
      mode: octalNumber(block, 100, 8, 0o644),
    });
    this.remaining = size;
    this.padding = tarPadding(size);
    if (size === 0) await this.endEntry();
  }

  private async endEntry(): Promise<void> {
    const sink = this.sink;
    this.sink = null;
    await sink?.end?.();
  }
}

function field(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function octalNumber(block: Buffer, offset: number, length: number, empty: number): number {
  const text = field(block, offset, length).trim();
  return text === "" ? empty : Number.parseInt(text, 8);
}
