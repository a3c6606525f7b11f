import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AutomationSource } from "../../ports/automation-source.js";
import { prepareAutomationImport, registerTsx, tsxRegistered } from "./automation-module-hooks.js";

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

  async loadDefaultExport(file: string, options: { fresh?: boolean } = {}): Promise<unknown> {
    // ES modules cannot be evicted from Node's cache: a reload imports the file under a new
    // URL. Each version's code stays in memory (small: the file itself, its imports are shared).
    const url = prepareAutomationImport(
      file,
      options.fresh ? `${pathToFileURL(file).href}?hearth-reload=${++reloadSequence}` : pathToFileURL(file).href,
    );
    const module = /\.m?ts$/.test(file) ? await importTypeScript(url) : await import(url);
    return (module as { default?: unknown }).default;
  }
}

let reloadSequence = 0;

/** Import failures that mean "this Node cannot run this TypeScript file by itself". */
const TSX_NEEDED = new Set(["ERR_UNKNOWN_FILE_EXTENSION", "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX"]);

/**
 * URLs whose plain import failed before tsx was registered. Node keeps a failed import in its
 * module map for good: importing such a URL again, even with tsx registered since, rethrows
 * "Unknown file extension .ts". A second engine in the process (createEngine after one whose
 * load failed) loading the same file must use the URL tsx loaded it under.
 */
const refusedWithoutTsx = new Set<string>();

/** The URL a TypeScript file is imported under once tsx is registered. */
function tsxUrl(url: string): string {
  if (!refusedWithoutTsx.has(url)) return url;
  return `${url}${url.includes("?") ? "&" : "?"}hearth-load=typescript`;
}

/**
 * When tsx is already registered (`npm start`, mocha) a plain import handles TypeScript and
 * shares the module cache with the app. Otherwise (a project using the built dist/ on plain
 * Node) tsx's loader API is registered once for the process, not per file: tsx's scoped
 * `tsImport` would give every automation file its own copy of `hearth` and everything it
 * imports (express, mqtt, ...), evaluated again for each file. Registered, every automation
 * shares the engine's module instances, and TypeScript helpers it imports lazily load too.
 */
async function importTypeScript(url: string): Promise<unknown> {
  if (!tsxRegistered()) {
    try {
      return await import(url);
    } catch (error) {
      // Unknown extension: Node without type stripping. Unsupported syntax: Node strips types
      // natively but the file uses TypeScript it cannot erase (enums, parameter properties).
      if (!TSX_NEEDED.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
      refusedWithoutTsx.add(url);
    }
  }
  await registerTsx();
  return import(tsxUrl(url));
}
