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

/** What a focus check reads off the focused element: a property, or a `data-` attribute. */
type FocusProperty = "id" | "tagName" | "textContent" | `data-${string}`;

/**
 * Waits (up to 5 s) until the focused element's `property` reads `expected`. Apps move focus
 * once the element is rendered, a frame or so after it appears: reading the focus as soon as
 * the element appeared failed on a busy CI machine. Fails with what the focused element reads.
 */
export async function expectFocus(page: Page, property: FocusProperty, expected: string): Promise<void> {
  const read = (wanted: string) => {
    const active = document.activeElement;
    if (!active) return null;
    return wanted.startsWith("data-")
      ? active.getAttribute(wanted)
      : String((active as unknown as Record<string, unknown>)[wanted] ?? "");
  };
  const deadline = Date.now() + 5_000;
  let value = await page.evaluate(read, property);
  while (value !== expected && Date.now() < deadline) {
    // One rendered frame at a time: what the app's focus move waits for.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    value = await page.evaluate(read, property);
  }
  expect(value, `focus (${property})`).to.equal(expected);
}
