/**
 * Where hap-nodejs keeps each bridge's pairings, keys and accessory ids.
 *
 * hap-nodejs stores them through one process-wide `HAPStorage` (node-persist, one
 * directory chosen once per process), but Hearth keeps every engine's data in its own
 * DATA_DIR, and one process may run several engines (tests, embedding programs). Every
 * key hap-nodejs writes names the bridge's username (`AccessoryInfo.<USERNAME>.json`,
 * `IdentifierCache.<USERNAME>.json`, `ControllerStorage.<USERNAME>.json`), so one storage
 * routes each key to the directory registered for that username. Each value is a JSON file
 * named by its key, which is also node-persist's layout, so a directory stays readable by
 * other hap-nodejs tools.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HAPStorage } from "hap-nodejs";

/** The part of node-persist's LocalStorage hap-nodejs calls (hap-nodejs 1.x). */
interface HapLocalStorage {
  getItem(key: string): unknown;
  setItemSync(key: string, value: unknown): void;
  removeItemSync(key: string): void;
  persistSync(): void;
}

const directories = new Map<string, string>();

function usernameOf(key: string): string | undefined {
  return /\.([0-9A-F]{12})\.json$/.exec(key)?.[1];
}

function fileFor(key: string): string {
  const username = usernameOf(key);
  const dir = username === undefined ? undefined : directories.get(username);
  if (dir === undefined) {
    // Only keys of bridges Hearth published reach here; anything else is a bug worth failing loudly on.
    throw new Error(`HomeKit storage: no data directory registered for "${key}"`);
  }
  return path.join(dir, key);
}

const routingStorage: HapLocalStorage = {
  getItem(key) {
    try {
      return JSON.parse(readFileSync(fileFor(key), "utf8")) as unknown;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  },
  setItemSync(key, value) {
    const file = fileFor(key);
    mkdirSync(path.dirname(file), { recursive: true });
    // Pairings are written aside and renamed: a crash mid-write must not unpair every iPhone.
    writeFileSync(`${file}.tmp`, JSON.stringify(value), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  },
  removeItemSync(key) {
    rmSync(fileFor(key), { force: true });
  },
  persistSync() {
    // Every write above is already on disk.
  },
};

let installed = false;

/** Makes hap-nodejs keep the data of the bridge `username` in `dir`. */
export function registerHapStorage(username: string, dir: string): void {
  if (!installed) {
    // hap-nodejs creates its node-persist store lazily on first use; handing it this one
    // first means node-persist never opens its default directory (./persist).
    (HAPStorage as unknown as { INSTANCE: { localStore?: HapLocalStorage } }).INSTANCE.localStore = routingStorage;
    installed = true;
  }
  directories.set(username.replace(/:/g, "").toUpperCase(), dir);
}
