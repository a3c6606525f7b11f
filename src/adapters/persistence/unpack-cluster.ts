import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

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
 * start, and after it); unpacked here, a first start opens the cluster like any later one.
 */
export async function unpackCluster(archive: Uint8Array, target: string): Promise<void> {
  const tar = await promisify(gunzip)(archive);
  const staging = `${target}.unpacking-${randomUUID()}`;
  await mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    for (let offset = 0; offset + BLOCK <= tar.length; ) {
      const header = tar.subarray(offset, offset + BLOCK);
      offset += BLOCK;
      const name = text(header, 0, 100);
      if (name === "") break; // the two zero blocks that end the archive
      const prefix = text(header, 257, 6) === "ustar" ? text(header, 345, 155) : "";
      const size = octal(header, 124, 12);
      const type = text(header, 156, 1) || "0";
      const relative = path.posix.normalize(`${prefix ? `${prefix}/` : ""}${name}`).replace(/^\/+/, "");
      if (relative === "" || relative === "." || relative.startsWith("../") || !Number.isSafeInteger(size)) {
        throw new Error(`The database template has an entry outside the cluster: ${name}`);
      }
      const destination = path.join(staging, ...relative.split("/"));
      if (type === "5") {
        await mkdir(destination, { recursive: true, mode: 0o700 });
      } else if (type === "0") {
        if (offset + size > tar.length) throw new Error(`The database template is cut short at ${name}`);
        await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
        await writeFile(destination, tar.subarray(offset, offset + size), { mode: 0o600 });
      } else {
        throw new Error(`The database template has an entry of type ${type}: ${name}`);
      }
      offset += Math.ceil(size / BLOCK) * BLOCK;
    }
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
