/**
 * TypeScript automations on plain Node (the built dist/, no `--import tsx`): the file source
 * registers tsx itself on the first .ts file Node refuses. Mocha runs under tsx, so this runs
 * the source in a child Node without it, compiled by esbuild as `npm run build` would.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "chai";
import { build } from "esbuild";
import { launch } from "../support/hearth-processes.js";

describe("TypeScript automations loaded on plain Node (tsx registered on demand)", function () {
  this.timeout(60_000);
  let scratch: string;
  let compiled: string;

  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-ts-loading-"));
    // Inside node_modules/ so the compiled file resolves tsx as the built package does.
    const cacheDir = path.resolve("node_modules/.cache");
    await mkdir(cacheDir, { recursive: true });
    compiled = path.join(await mkdtemp(path.join(cacheDir, "hearth-ts-loading-")), "file-automation-source.mjs");
    await build({
      entryPoints: ["src/adapters/loading/file-automation-source.ts"],
      outfile: compiled,
      format: "esm",
      platform: "node",
      // Its own modules in (the module hooks beside it), the packages it imports left out.
      bundle: true,
      packages: "external",
      logLevel: "silent",
    });
  });

  after(async () => {
    await rm(scratch, { recursive: true, force: true });
    await rm(path.dirname(compiled), { recursive: true, force: true });
  });

  it("lets a second engine load a .ts file whose first plain import failed", async () => {
    const automations = path.join(scratch, "automations");
    await mkdir(automations);
    await writeFile(path.join(automations, "package.json"), JSON.stringify({ type: "module" }));
    // An enum: TypeScript that Node's own type stripping (22, 24) cannot erase either, so every
    // Node version refuses the plain import and tsx is needed.
    await writeFile(
      path.join(automations, "porch.ts"),
      "enum Mode { Off, On }\nexport default { mode: Mode.On as number };\n",
    );
    const script = path.join(scratch, "two-engines.mjs");
    await writeFile(
      script,
      [
        `import { FileAutomationSource } from ${JSON.stringify(pathToFileURL(compiled).href)};`,
        `const file = ${JSON.stringify(path.join(automations, "porch.ts"))};`,
        // One source per engine, as two createEngine() calls in one process build them.
        "for (const engine of [1, 2]) {",
        "  try {",
        "    const loaded = await new FileAutomationSource().loadDefaultExport(file);",
        "    console.log('engine ' + engine + ': ' + JSON.stringify(loaded));",
        "  } catch (error) {",
        "    console.log('engine ' + engine + ': failed ' + (error.code ?? '') + ' ' + error.message);",
        "  }",
        "}",
      ].join("\n"),
    );
    const child = launch(process.execPath, [script], {});
    expect(await child.exited, child.output()).to.equal(0);
    expect(child.output().trim().split("\n")).to.deep.equal(['engine 1: {"mode":1}', 'engine 2: {"mode":1}']);
  });
});
