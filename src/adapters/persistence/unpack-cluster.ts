import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { type FileHandle, mkdir, open, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { createGunzip, type Gunzip, type Gzip } from "node:zlib";
import {
  putTar,
  putTarFile,
  type TarEntryHeader,
  type TarEntrySink,
  TarReader,
  tarHeader,
  writeTar,
} from "../archive/ustar.js";

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
  const reader = clusterReader(staging, source);
  const inflate = createGunzip({ chunkSize: 64 * 1024 });
  try {
    if (archive instanceof Uint8Array) inflate.end(archive);
    else void feed(archive, inflate);
    try {
      for await (const chunk of inflate) await reader.write(chunk as Buffer);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // zlib's own errors (a damaged or cut-short gzip stream) carry Z_* codes.
      if (typeof code === "string" && code.startsWith("Z_")) {
        throw new Error(`${source} is damaged: ${(error as Error).message}`);
      }
      throw error;
    }
    if (!reader.ended) reader.finish();
    await rename(staging, target);
  } catch (error) {
    // A stream stops being read here: destroyed, so whatever feeds it stops too.
    inflate.destroy();
    // With the error, so a feeder waiting for the stream to drain stops waiting.
    if (!(archive instanceof Uint8Array)) archive.destroy(error instanceof Error ? error : new Error(String(error)));
    await reader.abandon();
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

/**
 * The directories and regular files of a cluster's tar stream, written under `root` as its
 * chunks arrive; any other entry, or a path leaving the root, is refused.
 */
function clusterReader(root: string, source: string): TarReader {
  return new TarReader(
    async (entry: TarEntryHeader): Promise<TarEntrySink | null> => {
      const relative = path.posix.normalize(entry.path).replace(/^\/+/, "");
      if (relative === "" || relative === "." || relative.startsWith("../"))
        throw new Error(`${source} has an entry outside the cluster: ${entry.path}`);
      const destination = path.join(root, ...relative.split("/"));
      if (entry.type === "5") {
        await mkdir(destination, { recursive: true, mode: 0o700 });
        return null;
      }
      if (entry.type !== "0") throw new Error(`${source} has an entry of type ${entry.type}: ${entry.path}`);
      await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
      const file = await open(destination, "w", 0o600);
      return { piece: (data) => writeAll(file, data), end: () => file.close() };
    },
    (problem) => new Error(`${source} ${problem}`),
  );
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
  const mtime = Math.floor(Date.now() / 1000);
  const header = (name: string, type: "0" | "5", size: number) =>
    tarHeader(
      { path: name, type, mode: type === "5" ? 0o700 : 0o600, size, mtime },
      (long) => new Error(`A database file's path is too long for the archive: ${long}`),
    );
  const visit = async (gzip: Gzip, relative: string): Promise<void> => {
    const listing = await readdir(path.join(dataPath, relative), { withFileTypes: true });
    listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of listing) {
      const name = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await putTar(gzip, header(name, "5", 0));
        await visit(gzip, name);
      } else if (entry.isFile()) {
        await putTarFile(gzip, path.join(dataPath, name), (size) => header(name, "0", size), name);
      }
    }
  };
  try {
    await writeTar(file, (gzip) => visit(gzip, ""));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}
