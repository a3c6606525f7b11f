/**
 * docs/testing-automations.md's first example is a complete node:test file: it runs here as
 * written (through `node --test`), so the page cannot drift from what the kit does.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";

function example(marker: string): string {
  const page = readFileSync(path.resolve("docs/testing-automations.md"), "utf8");
  const start = page.indexOf(`<!-- example: ${marker} -->`);
  expect(start, `the example marker ${marker}`).to.be.greaterThan(-1);
  const block = /```ts\n([\s\S]*?)```/.exec(page.slice(start));
  expect(block, "a ts code block after the marker").to.not.equal(null);
  return (block as RegExpExecArray)[1] as string;
}

describe("docs/testing-automations.md", function () {
  this.timeout(60_000);

  it("its example test passes under node --test", async () => {
    // One folder below the checkout's root, so the example's "../automations/..." import resolves.
    const dir = await mkdtemp(path.resolve(".docs-example-"));
    try {
      const file = path.join(dir, "motion-light.test.ts");
      await writeFile(file, example("testing-automations"));
      // TAP on every Node line: from Node 23 the default reporter is "spec" even into a pipe.
      const result = spawnSync(
        process.execPath,
        ["--conditions=hearth-source", "--import", "tsx", "--test", "--test-reporter=tap", file],
        {
          encoding: "utf8",
          env: { PATH: process.env.PATH, HOME: process.env.HOME },
        },
      );
      const output = `${result.stdout}${result.stderr}`;
      expect(result.status, output).to.equal(0);
      expect(output).to.match(/# pass 2/);
      expect(output).to.match(/# fail 0/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
