#!/usr/bin/env node
/**
 * Builds the library that `import ... from "hearth"` resolves to outside this checkout:
 * compiles src/ to JavaScript with declaration files (tsconfig.build.json) and copies
 * the non-TypeScript files src/ needs at run time (web UI assets) beside them.
 *
 *   node scripts/build.mjs                   build into dist/ (npm run build)
 *   node scripts/build.mjs --prepare         npm's prepare hook: same, but skipped with a
 *                                            notice when TypeScript is not installed
 *                                            (npm ci --omit=dev)
 *   node scripts/build.mjs --out-dir <dir>   build somewhere else (tests)
 *
 * `npm start` never needs this: it runs src/ through tsx with the hearth-source condition.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const prepare = args.includes("--prepare");
const outIndex = args.indexOf("--out-dir");
const outDir = path.resolve(root, outIndex >= 0 ? (args[outIndex + 1] ?? "") : "dist");
const sourceDir = path.join(root, "src");

function findTypeScriptCompiler() {
  try {
    return createRequire(path.join(root, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    return null;
  }
}

/** Every file under `dir` that tsc does not emit (assets read at run time), relative to `dir`. */
function assetFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.(ts|mts|cts)$/.test(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

// The web app first: it needs only esbuild and preact (runtime dependencies), so production
// installs without TypeScript get it too. Built in place (web/dist) for the real build only;
// --out-dir builds (tests) leave the checkout's web app alone.
if (outIndex < 0) {
  const { buildWebApp } = await import("./build-web.mjs");
  try {
    const built = await buildWebApp();
    console.log(`hearth: web app built in ${path.relative(root, built.outDir)} (${built.shell.length} shell files).`);
  } catch (error) {
    console.error(`hearth: the web app build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

const tsc = findTypeScriptCompiler();
if (tsc === null) {
  if (prepare) {
    console.log("hearth: TypeScript is not installed (production install?); skipping the library build.");
    process.exit(0);
  }
  console.error("hearth: cannot build: TypeScript is not installed. Run `npm install` first.");
  process.exit(1);
}

// A clean output directory, so files of deleted sources never linger in the package.
if (existsSync(outDir)) rmSync(outDir, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json"), "--outDir", outDir], {
  cwd: root,
  stdio: "inherit",
});
if (compiled.status !== 0) {
  console.error(`hearth: the library build failed (tsc exited with ${compiled.status ?? compiled.signal}).`);
  process.exit(1);
}
const assets = assetFiles(sourceDir);
for (const file of assets) cpSync(path.join(sourceDir, file), path.join(outDir, file));
console.log(`hearth: library built in ${path.relative(root, outDir) || "."} (${assets.length} asset files copied).`);
