import { readFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import path from "node:path";

/** Marks the URL of an automation file the engine imports, for the hooks to recognise. */
const AUTOMATION_MARK = "hearth-automation-file";

/**
 * Module hooks for automation files kept outside any project that depends on Hearth (a
 * folder such as /srv/hearth/automations, a container volume), registered only when such a
 * file is about to load:
 *
 * - `import … from "hearth"` (or "hearth/testing") that Node cannot resolve from the file
 *   resolves to the running Hearth, as it would inside the checkout, where the name is the
 *   package's own: the same module instances, so `extends Automation` is the engine's class.
 * - An automation file that Node takes for CommonJS (no package.json with `"type": "module"`
 *   above it), and the files it imports by relative path, load as ES modules. Automations are
 *   written with `import`/`export`, and on Node 20 such a file cannot be `import()`ed as
 *   CommonJS at all (ERR_REQUIRE_CYCLE_MODULE). The format is set in `resolve`, so tsx's
 *   loader, before or after these hooks in the chain, compiles the file as a module.
 *
 * Hooks run on a thread of their own, so they are passed as source (a data: URL) rather than as
 * a file: the same text then works from `src/` under tsx and from the built `dist/`.
 */
const HOOKS = String.raw`
let hearthParent;
let typeScript;
const asModules = new Set();
export function initialize(data) {
  hearthParent = data.hearthParent;
  typeScript = data.typeScript;
}
export async function resolve(specifier, context, nextResolve) {
  let resolved;
  try {
    resolved = await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" || !/^hearth(\/|$)/.test(specifier)) throw error;
    return nextResolve(specifier, { ...context, parentURL: hearthParent });
  }
  const ours = resolved.url.includes("${AUTOMATION_MARK}") || asModules.has(context.parentURL);
  const kind = /^file:[^?#]*\.(ts|js)([?#]|$)/.exec(resolved.url)?.[1];
  if (!ours || resolved.format !== "commonjs" || !kind || (kind === "ts" && !typeScript)) return resolved;
  if (resolved.url.includes("/node_modules/")) return resolved;
  asModules.add(resolved.url);
  return { ...resolved, format: "module" };
}
`;

/** Whether these hooks are registered, and outside tsx's. */
let registered = false;
let tsxRegistration: Promise<void> | undefined;

/**
 * The URL to import automation `file` under (given as `url`), after registering the hooks once
 * per process when the file needs them: it cannot resolve "hearth", or it is TypeScript outside
 * an ES-module package. Files in the checkout or in a project that depends on Hearth need
 * neither, and then no hook thread is started (it costs memory on Node 22 and later).
 */
export function prepareAutomationImport(file: string, url: string): string {
  if (!registered && needsHooks(file)) registerHooks();
  return registered ? `${url}${url.includes("?") ? "&" : "?"}${AUTOMATION_MARK}` : url;
}

/** Whether tsx's loader was registered by {@link registerTsx}. */
export function tsxRegistered(): boolean {
  return tsxRegistration !== undefined;
}

/**
 * Registers tsx's loader once for the process, for TypeScript this Node cannot run itself. Hooks
 * registered later run first: the hooks above are registered again after it, so they stay the
 * outer ones, see the file's mark (tsx takes a URL's query off before passing it on) and tell
 * tsx a file is a module before tsx decides how to compile it.
 */
export function registerTsx(): Promise<void> {
  tsxRegistration ??= import("tsx/esm/api").then(({ register: registerTsxHooks }) => {
    registerTsxHooks();
    if (registered) registerHooks();
  });
  return tsxRegistration;
}

function registerHooks(): void {
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    // A module inside the Hearth package: "hearth" resolved from here is the package itself.
    parentURL: import.meta.url,
    data: {
      hearthParent: import.meta.url,
      // Forced to be a module, a .ts file nobody compiles would fail as a syntax error instead
      // of the unknown extension that makes the loader register tsx.
      typeScript: typeScriptRuns(),
    },
  });
}

/** Whether a .ts file gets compiled: Node strips types itself, or tsx is in the chain. */
function typeScriptRuns(): boolean {
  // Node 20's typings do not know the flag (Node 22.10 added it).
  const native = (process.features as { typescript?: unknown }).typescript;
  const preloaded = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  return Boolean(native) || tsxRegistration !== undefined || /(^|[\s=])tsx([/\s]|$)/.test(preloaded);
}

function needsHooks(file: string): boolean {
  return !resolvesHearth(file) || (/\.ts$/.test(file) && !inModulePackage(path.dirname(file)));
}

function resolvesHearth(file: string): boolean {
  try {
    createRequire(file).resolve("hearth");
    return true;
  } catch {
    return false;
  }
}

/** Whether the nearest package.json above `dir` says `"type": "module"`, as Node reads it. */
function inModulePackage(dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    const text = readIfThere(path.join(at, "package.json"));
    if (text !== null) {
      try {
        return (JSON.parse(text) as { type?: unknown }).type === "module";
      } catch {
        return false;
      }
    }
    if (path.dirname(at) === at) return false;
  }
}

function readIfThere(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}
