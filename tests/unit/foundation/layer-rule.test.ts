import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";

const script = path.resolve("scripts/check-layers.mjs");

function check(root?: string) {
  const result = spawnSync(process.execPath, [script, ...(root ? [root] : [])], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the layer rule (npm run lint)", () => {
  let scratch: string;

  async function tree(files: Record<string, string>): Promise<string> {
    for (const [file, text] of Object.entries(files)) {
      const full = path.join(scratch, "src", file);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, text);
    }
    return scratch;
  }

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "hearth-layers-"));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("holds for this checkout", () => {
    const { status, output } = check();
    expect(status, output).to.equal(0);
  });

  it("accepts imports that follow the rule", async () => {
    const { status, output } = check(
      await tree({
        "domain/a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
        "domain/b.ts": "export const b = 1;\n",
        "ports/p.ts": 'import type { a } from "../domain/a.js";\nexport type P = typeof a;\n',
        "application/u.ts":
          'import type { P } from "../ports/p.js";\nimport { a } from "../domain/a.js";\nexport const u: P = a;\n',
        "adapters/http/h.ts":
          'import express from "express";\nimport { u } from "../../application/u.js";\nimport { log } from "../logging/l.js";\nexport const h = [express, u, log];\n',
        "adapters/logging/l.ts": "export const log = 1;\n",
        "composition/c.ts":
          'import { container } from "tsyringe";\nimport { h } from "../adapters/http/h.js";\nexport const c = [container, h];\n',
      }),
    );
    expect(status, output).to.equal(0);
  });

  const wrong: [string, Record<string, string>, RegExp][] = [
    [
      "the domain importing the application",
      { "domain/a.ts": 'import { u } from "../application/u.js";\n', "application/u.ts": "export const u = 1;\n" },
      /domain may import only domain/,
    ],
    [
      "the domain importing a package",
      { "domain/a.ts": 'import { z } from "zod";\n' },
      /the domain imports no package/,
    ],
    [
      "the application importing an adapter",
      {
        "application/u.ts": 'import { h } from "../adapters/http/h.js";\n',
        "adapters/http/h.ts": "export const h = 1;\n",
      },
      /application may import only/,
    ],
    [
      "the application naming express in an inline type",
      { "application/u.ts": 'export type R = import("express").Router;\n' },
      /application imports no framework/,
    ],
    [
      "the application importing node:path",
      { "application/u.ts": 'import path from "node:path";\nexport const p = path;\n' },
      /node:path/,
    ],
    [
      "one adapter area reaching into another",
      {
        "adapters/mqtt/m.ts": 'import { k } from "../persistence/k.js";\n',
        "adapters/persistence/k.ts": "export const k = 1;\n",
      },
      /go through a port/,
    ],
    [
      "an adapter importing tsyringe",
      { "adapters/http/h.ts": 'import { container } from "tsyringe";\n' },
      /only composition imports tsyringe/,
    ],
  ];
  for (const [what, files, message] of wrong) {
    it(`fails on ${what}`, async () => {
      const { status, output } = check(await tree(files));
      expect(status).to.equal(1);
      expect(output).to.match(message);
    });
  }
});
