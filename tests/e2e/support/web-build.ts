/**
 * The web build (scripts/build-web.mjs) of the checkout, made once per test process into a
 * temporary folder: the engine serves its status entry at /status, so the suites that drive
 * /status give engines this folder as WEB_APP_DIR instead of relying on a web/dist of the checkout.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");
let built: string | null = null;

export function builtWebApp(): string {
  if (built) return built;
  const scratch = mkdtempSync(path.join(tmpdir(), "hearth-status-web-"));
  const dir = path.join(scratch, "web");
  execFileSync(process.execPath, [path.join(root, "scripts/build-web.mjs"), "--out-dir", dir], { stdio: "pipe" });
  process.once("exit", () => rmSync(scratch, { recursive: true, force: true }));
  built = dir;
  return dir;
}
