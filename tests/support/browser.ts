import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * Chromium from CHROMIUM_PATH when it is set (and only there: a path that does not exist means
 * "no Chromium", as on a fresh machine), else the Debian package's paths; null when none exists.
 */
export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  const candidates = configured ? [configured] : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate))) ?? null;
}

/**
 * Launches headless Chromium, or prints a loud notice and returns null so the caller can
 * skip. CI always installs Chromium (.ci/run), so there the e2e tier always runs.
 */
export async function launchChromium(suite: string, extraArgs: string[] = []): Promise<Browser | null> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    const banner = "!".repeat(78);
    console.log(
      `\n${banner}\n  E2E SKIPPED (${suite}): no Chromium found.\n` +
        "  Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.\n" +
        `${banner}\n`,
    );
    return null;
  }
  console.log(`      [e2e] ${suite}: Chromium at ${executablePath}`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...extraArgs],
  });
}
