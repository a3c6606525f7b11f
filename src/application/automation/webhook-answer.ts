import type { WebhookRefusal } from "../../domain/automation/webhook-refusal.js";
import type { TriggerResult } from "../../ports/automation-catalog.js";

/**
 * The status a webhook call answers with, from how its runs ended; the first that applies wins:
 * a run failed, 500 (a 500 must not hide behind one automation's 4xx); a run refused the
 * request, that refusal's status (the first automation's, with several); a run mode dropped a
 * firing, 409 (it did not run, so not "done"); else 200. The engine's `/webhook/*` and the test
 * kit's `webhook()` both answer by it.
 */
export function webhookAnswer(results: readonly TriggerResult[]): { status: number; refusal?: WebhookRefusal } {
  if (results.some((result) => result.status === "error")) return { status: 500 };
  const refused = results.find((result) => result.status === "refused");
  if (refused?.status === "refused") return { status: refused.refusal.status, refusal: refused.refusal };
  if (results.some((result) => result.status === "dropped")) return { status: 409 };
  return { status: 200 };
}
