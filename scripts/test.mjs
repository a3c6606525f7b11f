#!/usr/bin/env node
// `npm test`: runs every tier even when an earlier one fails, so one red tier never hides the
// state of the others, then prints one summary line per tier and exits non-zero if any failed.
//
// Usage: node scripts/test.mjs [tier ...]   (default: every tier, in order)
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

const TIERS = ["lint", "typecheck", "unit", "contract", "integration", "e2e"];
const SCRIPTS = {
  lint: "lint",
  typecheck: "typecheck",
  unit: "test:unit",
  contract: "test:contract",
  integration: "test:integration",
  e2e: "test:e2e",
};

const requested = process.argv.slice(2);
const unknown = requested.filter((tier) => !TIERS.includes(tier));
if (unknown.length > 0) {
  console.error(`Unknown tier: ${unknown.join(", ")}. Tiers: ${TIERS.join(", ")}.`);
  process.exit(2);
}
const tiers = requested.length > 0 ? requested : TIERS;

/** Mocha's closing counts ("12 passing", "1 failing", "3 pending"), summed over the output. */
function mochaCounts(output) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const words = { passing: "passed", failing: "failed", pending: "skipped" };
  // Colour codes would break the match when mocha writes to a terminal.
  const plain = stripVTControlCharacters(output);
  for (const match of plain.matchAll(/^\s*(\d+) (passing|failing|pending)\b/gm)) {
    counts[words[match[2]]] += Number(match[1]);
  }
  return counts;
}

function runTier(tier) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "--silent", SCRIPTS[tier]], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on("close", (code, signal) => {
      resolve({
        tier,
        ok: code === 0,
        code: code ?? signal,
        seconds: (Date.now() - started) / 1000,
        ...mochaCounts(output),
      });
    });
  });
}

const results = [];
for (const tier of tiers) {
  console.log(`\n==> ${tier}`);
  results.push(await runTier(tier));
}

console.log("\nTest tiers:");
for (const result of results) {
  const counts = ["unit", "contract", "integration", "e2e"].includes(result.tier)
    ? `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`
    : "";
  const verdict = result.ok ? "ok" : `FAILED (exit ${result.code})`;
  console.log(`  ${result.tier.padEnd(12)} ${verdict.padEnd(18)} ${counts.padEnd(40)} ${result.seconds.toFixed(1)} s`);
}
const failed = results.filter((result) => !result.ok).map((result) => result.tier);
console.log(failed.length === 0 ? "All tiers passed." : `Failed tiers: ${failed.join(", ")}.`);
process.exit(failed.length === 0 ? 0 : 1);
