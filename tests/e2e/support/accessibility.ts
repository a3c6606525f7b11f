import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { expect } from "chai";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // evaluate() is not subject to the page's CSP, which forbids injected inline scripts.
  await page.evaluate(await readFile(require.resolve("axe-core/axe.min.js"), "utf8"));
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
}

/** Fails the test on any serious or critical axe violation of the page as it is now. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${screen}`).to.deep.equal([]);
}
