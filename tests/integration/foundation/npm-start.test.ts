/**
 * `npm start` (scripts/run-hearth.mjs) runs the compiled dist/ when it was built from the
 * sources as they are, and src/ through tsx, with `import "hearth"` resolving to src/, when
 * src/ or migrations/ changed since the build. Checked on a scratch checkout whose dist/ is a
 * stand-in that says it ran, so no test here makes the real dist/ stale for the others.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { compiledRuntimeStaleness } from "../../../scripts/dist-freshness.mjs";

const ROOT = path.resolve(".");

/**
 * A checkout with the real scripts/, bin/, src/ and migrations/ (src/ and migrations/ linked,
 * so their modification times are the real ones) and a dist/ that only reports that it ran.
 */
function scratchCheckout(): { root: string; builtAt(seconds: number): void; remove(): void } {
  const root = mkdtempSync(path.join(tmpdir(), "hearth-npm-start-"));
  for (const dir of ["scripts", "bin"]) cpSync(path.join(ROOT, dir), path.join(root, dir), { recursive: true });
  for (const dir of ["src", "migrations", "node_modules"]) symlinkSync(path.join(ROOT, dir), path.join(root, dir));
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "hearth", type: "module" }));
  mkdirSync(path.join(root, "dist/composition"), { recursive: true });
  const main = path.join(root, "dist/composition/main.js");
  writeFileSync(main, 'console.log("compiled dist ran:", process.argv.slice(2).join(" "));\n');
  writeFileSync(path.join(root, "dist/composition/small-heap.js"), "export function keepHeapSmall() { return {}; }\n");
  writeFileSync(
    path.join(root, "dist/composition/malloc-pools.js"),
    "export function restartWithSmallMallocPools() {}\n",
  );
  return {
    root,
    builtAt(seconds) {
      utimesSync(main, seconds, seconds);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

function runHearth(root: string, args: string[]) {
  return spawnSync(process.execPath, [path.join(root, "scripts/run-hearth.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), NODE_OPTIONS: "" },
  });
}

describe("npm start: the compiled output when it is current, the sources otherwise", function () {
  this.timeout(60_000);
  let checkout: ReturnType<typeof scratchCheckout>;

  beforeEach(() => {
    checkout = scratchCheckout();
  });
  afterEach(() => {
    checkout.remove();
  });

  it("runs dist/ in its own process when dist/ was built after every change to src/ and migrations/", () => {
    checkout.builtAt(Date.now() / 1000 + 3600);
    expect(compiledRuntimeStaleness(checkout.root)).to.equal(null);
    const run = runHearth(checkout.root, ["start", "--flag"]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.include("compiled dist ran: start --flag");
    expect(run.stderr).not.to.include("tsx");
  });

  it("runs src/ through tsx, and says why, when src/ changed after the build", () => {
    checkout.builtAt(0);
    expect(compiledRuntimeStaleness(checkout.root)).to.equal("stale");
    const run = runHearth(checkout.root, ["--version"]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).not.to.include("compiled dist ran");
    expect(run.stdout.trim()).to.match(/^\d+\.\d+\.\d+/);
    expect(run.stderr).to.include("src/ changed since dist/ was built").and.to.include("npm run build");
  });

  it("runs src/ when dist/ was never built", () => {
    rmSync(path.join(checkout.root, "dist"), { recursive: true });
    expect(compiledRuntimeStaleness(checkout.root)).to.equal("missing");
    const run = runHearth(checkout.root, ["--version"]);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stderr).to.include("dist/ is not built");
  });

  it("resolves `hearth` to the sources while it runs them, as --conditions=hearth-source did", () => {
    const probe = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "--eval",
        `import { register } from "node:module";
         const before = import.meta.resolve("hearth");
         register(${JSON.stringify(path.join(ROOT, "scripts/hearth-source-condition.mjs"))}, import.meta.url);
         console.log(JSON.stringify({ before, after: import.meta.resolve("hearth") }));`,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
    );
    expect(probe.status, probe.stderr).to.equal(0);
    const { before, after } = JSON.parse(probe.stdout) as { before: string; after: string };
    expect(before).to.match(/\/dist\/index\.js$/);
    expect(after).to.match(/\/src\/index\.ts$/);
  });
});
