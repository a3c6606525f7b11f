#!/usr/bin/env node
// The dependency rule of docs/architecture.md, checked on every `npm run lint`:
//   domain       imports nothing outside itself;
//   ports        imports domain and ports;
//   application  imports domain, ports and itself (no frameworks, no node:path);
//   adapters     import domain, ports, application and their own area; another adapter area
//                only through the shared ones listed below;
//   composition  anything; it is the only place that imports tsyringe.
// Static imports, re-exports, dynamic import() and inline import("…") types all count.
//
// Usage: node scripts/check-layers.mjs [root]   (root defaults to this checkout; tests pass a scratch tree)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
const src = path.join(root, "src");

// Adapter areas every other area may use: they are plumbing shared by all adapters.
const SHARED_ADAPTER_AREAS = new Set(["logging", "security", "ids", "archive", "http-client"]);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** ["domain"], ["adapters", "http"], ... for a path under src/; null outside it. */
function placeOf(file) {
  const relative = path.relative(src, file);
  if (relative.startsWith("..")) return null;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts.slice(0, parts[0] === "adapters" ? 2 : 1) : ["index"];
}

function problemFor(from, specifier, file) {
  const layer = from[0];
  if (!specifier.startsWith(".")) {
    if (layer === "domain") return "the domain imports no package or Node.js module";
    if (
      (layer === "application" || layer === "ports") &&
      (!specifier.startsWith("node:") || specifier === "node:path")
    ) {
      return `${layer} imports no framework or adapter package (${specifier})`;
    }
    if (specifier === "tsyringe" && layer !== "composition") return "only composition imports tsyringe";
    return null;
  }
  const target = placeOf(path.resolve(path.dirname(file), specifier));
  if (target === null) return layer === "composition" || layer === "index" ? null : `${specifier} is outside src/`;
  const allowed = {
    domain: ["domain"],
    ports: ["domain", "ports"],
    application: ["domain", "ports", "application"],
  }[layer];
  if (allowed)
    return allowed.includes(target[0])
      ? null
      : `${layer} may import only ${allowed.join(", ")}, not ${target.join("/")}`;
  if (layer === "adapters") {
    if (target[0] === "composition" || target[0] === "index") return `adapters do not import ${target[0]}`;
    if (target[0] === "adapters" && target[1] !== from[1] && !SHARED_ADAPTER_AREAS.has(target[1])) {
      return `adapters/${from[1]} reaches into adapters/${target[1]}; go through a port`;
    }
  }
  return null;
}

const problems = [];
for (const file of sourceFiles(src)) {
  const from = placeOf(file);
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  for (const match of text.matchAll(SPECIFIER)) {
    const problem = problemFor(from, match[1], file);
    if (problem) problems.push(`${path.relative(root, file)}: imports "${match[1]}": ${problem}`);
  }
}

if (problems.length > 0) {
  console.error(`Layer rule broken (docs/architecture.md):\n${problems.map((line) => `  ${line}`).join("\n")}`);
  process.exit(1);
}
console.log("Layers: every import follows the dependency rule.");
