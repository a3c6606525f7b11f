import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface StoredSecret {
  secret: string;
  /** Absolute path of the file holding it. */
  file: string;
  /** True when this call generated it (first start). */
  created: boolean;
}

/**
 * A secret generated once and kept in `file` (mode 0600), so it survives restarts: the
 * development JWT secret, the engine's generated HTTP token. A stored value shorter than
 * `minLength` (a truncated or hand-edited file) is replaced.
 */
export async function loadOrCreateSecret(
  file: string,
  options: { bytes: number; minLength: number },
): Promise<StoredSecret> {
  const absolute = path.resolve(file);
  try {
    const stored = (await readFile(absolute, "utf8")).trim();
    if (stored.length >= options.minLength) return { secret: stored, file: absolute, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(options.bytes).toString("base64url");
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, `${secret}\n`, { mode: 0o600 });
  return { secret, file: absolute, created: true };
}
