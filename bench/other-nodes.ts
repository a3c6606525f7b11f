import { spawnSync } from "node:child_process";

/** `--node 22` (or `--node 20,22,24`) on the command line: the Node versions asked for, else null. */
function requestedNodes(argv: string[]): string[] | null {
  const at = argv.indexOf("--node");
  const value = at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith("--node="))?.slice("--node=".length);
  if (value === undefined) return null;
  return value.split(",").map((version) => version.trim());
}

/**
 * With `--node <versions>`, runs the bench `script` (a path from the project root) on each of
 * those Node versions in turn and exits with 1 if any failed; without it, returns, and the bench
 * runs on this Node.
 */
export function runOnRequestedNodes(script: string): void {
  const requested = requestedNodes(process.argv.slice(2));
  if (!requested) return;
  let failed = 0;
  for (const version of requested) {
    // The npm registry's `node` package is the way to get another Node here; the project's
    // tsx loader and the hearth-source condition run the bench from source on each.
    const result = spawnSync(
      "npx",
      ["-y", "-p", `node@${version}`, "node", "--conditions=hearth-source", "--import", "tsx", script],
      { stdio: "inherit", env: process.env },
    );
    if (result.status !== 0) failed++;
  }
  process.exit(failed === 0 ? 0 : 1);
}
