import { readFileSync } from "node:fs";

/** The package version, for /api/status and logs (package.json sits two levels above src/ and dist/ files). */
function readPackageVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return String((JSON.parse(text) as { version?: unknown }).version ?? "0.0.0");
  } catch {
    // A bundled or relocated build has no package.json beside it; the version is cosmetic.
    return "0.0.0";
  }
}

export const HEARTH_VERSION = readPackageVersion();
