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
 * The `hearth` command runs this output (dist/composition/main.js) on plain Node, so the
 * knex migrations are compiled too, into dist/migrations/. `npm start` never needs this: it
 * runs src/ through tsx with the hearth-source condition.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const prepare = args.includes("--prepare");
const outIndex = args.indexOf("--out-dir");
const outDir = path.resolve(root, outIndex >= 0 ? (args[outIndex + 1] ?? "") : "dist");
const sourceDir = path.join(root, "src");
const migrationsDir = path.join(root, "migrations");

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
const migrations = compileMigrations(path.join(outDir, "migrations"));
// The initialised PGlite clusters (empty, and migrated) a first start loads instead of running
// initdb and the migrations, written by the module that reads them. From the sources through
// tsx, in a process of its own: the output directory may sit where no node_modules resolves.
const templates = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "--input-type=module",
    "--eval",
    `const { writePgliteTemplates } = await import(${JSON.stringify(pathToFileURL(path.join(sourceDir, "adapters", "persistence", "database.ts")).href)});
     await writePgliteTemplates(${JSON.stringify(path.join(outDir, "pglite-template"))}, ${JSON.stringify(migrationsDir)});`,
  ],
  { cwd: root, stdio: "inherit" },
);
if (templates.status !== 0) {
  console.error(`hearth: writing the PGlite templates failed (exit ${templates.status ?? templates.signal}).`);
  process.exit(1);
}
console.log(
  `hearth: library built in ${path.relative(root, outDir) || "."} (${assets.length} asset files copied, ${migrations} migrations compiled, PGlite templates written).`,
);

/**
 * Compiles migrations/*.ts one by one into `target`. They were type-checked with the rest
 * (tsconfig.json includes them); here they are only transpiled. A migration imports its
 * helpers from "../src/…", which in dist/ sit one level up instead ("../…").
 */
function compileMigrations(target) {
  const ts = createRequire(path.join(root, "package.json"))("typescript");
  const files = readdirSync(migrationsDir).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
  mkdirSync(target, { recursive: true });
  for (const file of files) {
    const source = readFileSync(path.join(migrationsDir, file), "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const relocated = outputText.replace(/(from\s+["'])\.\.\/src\//g, "$1../");
    writeFileSync(path.join(target, file.replace(/\.ts$/, ".js")), relocated);
  }
  return files.length;
}
