import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../../ports/logger.js";
import type { JsonStore } from "../../ports/json-store.js";

/**
 * A JSON document in one file, written through a temporary file, fsync and rename so a
 * crash leaves either the old or the new document. A file that does not parse is moved
 * aside (`<file>.corrupt-<timestamp>`) with a warning and treated as absent.
 */
export class JsonFileStore implements JsonStore {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly filePath: string,
    private readonly logger: Logger,
  ) {}

  async load(): Promise<unknown> {
    await this.removeStaleTemporaryFiles();
    let text: string;
    try {
      text = await readFile(this.filePath, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      const aside = await this.moveAside();
      this.logger.warn("Stored file is not valid JSON; moved it aside and starting empty", {
        file: this.filePath,
        movedTo: aside,
        err: error,
      });
      return undefined;
    }
  }

  /** Renames the file to `<file>.corrupt-<timestamp>`; null when there is no file. */
  async moveAside(): Promise<string | null> {
    await this.writing;
    const aside = `${this.filePath}.corrupt-${Date.now()}`;
    try {
      await rename(this.filePath, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    return aside;
  }

  /** A crash between write and rename leaves `<file>.<random>.tmp` behind; it never holds the live document. */
  private async removeStaleTemporaryFiles(): Promise<void> {
    const directory = path.dirname(path.resolve(this.filePath));
    const prefix = `${path.basename(this.filePath)}.`;
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    const stale = names.filter(
      (name) => name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length)),
    );
    await Promise.all(stale.map((name) => unlink(path.join(directory, name)).catch(() => undefined)));
  }

  /** Saves are serialised, so the last call's document is the one left on disk. */
  save(document: unknown): Promise<void> {
    const text = `${JSON.stringify(document, null, 2)}\n`;
    const write = this.writing.then(() => this.writeAtomically(text));
    // A failed write must not wedge later ones; the caller of this save still sees the error.
    this.writing = write.catch(() => undefined);
    return write;
  }

  private async writeAtomically(text: string): Promise<void> {
    await mkdir(path.dirname(path.resolve(this.filePath)), { recursive: true });
    const temporary = `${this.filePath}.${randomBytes(6).toString("hex")}.tmp`;
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.filePath);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}
