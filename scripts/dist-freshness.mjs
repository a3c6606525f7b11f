// Whether dist/ (what bin/hearth.js runs) was built from the sources as they are now. Used by
// `npm start` (scripts/run-hearth.mjs) to pick the compiled output, and by the tests that
// launch bin/hearth.js to refuse a stale build.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The newest modification time of the files under `dir`, in ms (0 for none). */
export function newestChange(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/**
 * Why the checkout at `root` cannot run dist/ in place of src/: "missing" (never built) or
 * "stale" (src/ or migrations/ changed after the build); null when dist/ is current.
 */
export function compiledRuntimeStaleness(root) {
  let builtAt;
  try {
    builtAt = statSync(path.join(root, "dist/composition/main.js")).mtimeMs;
  } catch {
    return "missing";
  }
  const changed = Math.max(newestChange(path.join(root, "src")), newestChange(path.join(root, "migrations")));
  return changed > builtAt ? "stale" : null;
}
