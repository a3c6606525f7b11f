import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { keepsFiles } from "../../ports/data-dir.js";
import { generateVapidKeys, type VapidKeys, vapidKeyProblem } from "./vapid-key-check.js";

export type { VapidKeys };

export interface LoadedVapidKeys extends VapidKeys {
  /** Where they came from: the environment, or the file in DATA_DIR (created now or before). */
  source: "environment" | "generated" | "file";
  file?: string;
}

const keyFile = z.object({ publicKey: z.string(), privateKey: z.string() }).strict();

/** Name of the generated key file in DATA_DIR. */
export const VAPID_KEY_FILE = "vapid-keys.json";

/**
 * The VAPID keys: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set (config checked they come
 * together), else the pair generated into `<DATA_DIR>/vapid-keys.json` (mode 0600) on first start
 * and read on every later one. Every browser subscription is bound to the public key, so a file
 * that cannot be read as a valid pair stops the start with the file's name instead of being
 * replaced: a new pair would silently end every member's reminders.
 */
export async function loadOrCreateVapidKeys(options: {
  publicKey?: string | undefined;
  privateKey?: string | undefined;
  dataDir: string;
}): Promise<LoadedVapidKeys> {
  if (options.publicKey && options.privateKey)
    return { publicKey: options.publicKey, privateKey: options.privateKey, source: "environment" };
  // A DATA_DIR that keeps nothing on disk gets a pair for this process only.
  if (!keepsFiles(options.dataDir)) return { ...generateVapidKeys(), source: "generated" };
  const file = path.resolve(options.dataDir, VAPID_KEY_FILE);
  const stored = await readKeyFile(file);
  if (stored) return { ...stored, source: "file", file };
  const generated = generateVapidKeys();
  await mkdir(path.dirname(file), { recursive: true });
  try {
    // "wx": a second process starting at the same moment keeps the first one's pair.
    await writeFile(file, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const winner = await readKeyFile(file);
    if (winner) return { ...winner, source: "file", file };
  }
  return { ...generated, source: "generated", file };
}

async function readKeyFile(file: string): Promise<VapidKeys | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const fix = `restore it from a backup, or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (deleting it makes a new pair, and every device must turn reminders on again)`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`The Web Push key file ${file} is not JSON: ${fix}`);
  }
  const keys = keyFile.safeParse(parsed);
  if (!keys.success) throw new Error(`The Web Push key file ${file} lacks publicKey and privateKey: ${fix}`);
  const problem = vapidKeyProblem(keys.data);
  if (problem) throw new Error(`The Web Push key file ${file} is damaged (${problem}): ${fix}`);
  return keys.data;
}
