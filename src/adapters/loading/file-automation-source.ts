import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AutomationSource } from "../../ports/automation-source.js";

const AUTOMATION_FILE = /\.(ts|mts|js|mjs)$/;
const DECLARATION_FILE = /\.d\.(ts|mts)$/;

/**
 * Automation files on disk. TypeScript is loaded through tsx's loader API, so .ts files
 * load on plain Node without a build step (and still work when tsx is already registered).
 */
export class FileAutomationSource implements AutomationSource {
  async listFiles(dir: string, recursive: boolean): Promise<string[]> {
    const root = path.resolve(dir);
    const entries = await readdir(root, { withFileTypes: true, recursive }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") throw new Error(`Automations directory ${root} does not exist (AUTOMATIONS_DIR)`);
      throw error;
    });
    return entries
      .filter((entry) => entry.isFile() && AUTOMATION_FILE.test(entry.name) && !DECLARATION_FILE.test(entry.name))
      .map((entry) => path.join(entry.parentPath ?? root, entry.name))
      .filter((file) => !file.split(path.sep).includes("node_modules"))
      .sort();
  }

  async loadDefaultExport(file: string): Promise<unknown> {
    const url = pathToFileURL(file).href;
    const module = /\.m?ts$/.test(file) ? await importTypeScript(url) : await import(url);
    return (module as { default?: unknown }).default;
  }
}

/**
 * When tsx is already registered (`npm start`, mocha) a plain import handles TypeScript and
 * shares the module cache with the app. Otherwise (the built dist/ on plain Node) tsx's
 * loader API compiles the file on the fly.
 */
async function importTypeScript(url: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  }
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(url, import.meta.url);
}
