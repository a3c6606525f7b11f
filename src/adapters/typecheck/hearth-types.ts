import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The Hearth package this code runs from (this file is in src/ or dist/adapters/typecheck/). */
const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Where the compiler finds "hearth" and "hearth/testing" for automations that cannot resolve
 * the package themselves (a folder outside any project, which `hearth start` loads with the
 * running Hearth): the running package's typings, or its sources in a checkout not yet built.
 * Undefined when `file` resolves "hearth" itself (the checkout, a project depending on it).
 */
export function hearthTypePaths(file: string): Record<string, string[]> | undefined {
  try {
    createRequire(path.resolve(file)).resolve("hearth");
    return undefined;
  } catch {
    return {
      hearth: [typesOf("index")],
      "hearth/testing": [typesOf("testing")],
    };
  }
}

function typesOf(entry: string): string {
  const built = path.join(PACKAGE_ROOT, "dist", `${entry}.d.ts`);
  return existsSync(built) ? built : path.join(PACKAGE_ROOT, "src", `${entry}.ts`);
}
