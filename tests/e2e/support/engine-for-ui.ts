import { startFakeEngine } from "./fake-engine.js";
import type { EngineHarness } from "./harness.js";
import { startRealEngine } from "./real-engine.js";

/**
 * The engine the browser tests drive: the real one against a real broker. HEARTH_E2E_FAKE=1
 * swaps in the stand-in debug API over fakes (for working on the page without a broker).
 */
export async function startEngineForUi(token: string): Promise<EngineHarness> {
  return process.env.HEARTH_E2E_FAKE === "1" ? startFakeEngine(token) : startRealEngine(token);
}
