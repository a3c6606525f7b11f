import type {
  AutomationInfo,
  AutomationManagerApi,
  RunTrace,
  TriggerRejection,
  TriggerResult,
  WebhookTarget,
} from "../../src/ports/automation-catalog.js";
import type { TriggerContext, WebhookSecret } from "../../src/domain/automation/trigger.js";
import { webhookRefusalOf } from "../../src/domain/automation/webhook-refusal.js";

export interface FakeAutomation {
  info: AutomationInfo;
  execute: (context: TriggerContext) => Promise<void> | void;
}

export function automationInfo(name: string, overrides: Partial<AutomationInfo> = {}): AutomationInfo {
  return {
    name,
    file: `/automations/${name}.ts`,
    status: "running",
    triggers: [],
    stats: { runs: 0, errors: 0, lastRunAt: null, lastError: null, lastDurationMs: null },
    ...overrides,
  };
}

/** An AutomationManagerApi over a list of automations whose execute the test supplies. */
export class FakeAutomationManager implements AutomationManagerApi {
  readonly runs: { name: string; context: TriggerContext }[] = [];
  private readonly automations = new Map<string, FakeAutomation>();
  private readonly listeners = new Set<(event: { automation: string; durationMs: number; error?: unknown }) => void>();

  private readonly catalogListeners = new Set<() => void>();

  /** Adds (or replaces) an automation, as a registration or a reload would: catalog listeners hear it. */
  add(info: AutomationInfo, execute: FakeAutomation["execute"] = () => undefined): this {
    this.automations.set(info.name, { info, execute });
    for (const listener of this.catalogListeners) listener();
    return this;
  }

  listAutomations(): AutomationInfo[] {
    return [...this.automations.values()].map((automation) => automation.info);
  }

  getAutomation(name: string): AutomationInfo | null {
    return this.automations.get(name)?.info ?? null;
  }

  async runAutomation(name: string, context: TriggerContext): Promise<TriggerResult> {
    const automation = this.automations.get(name);
    if (!automation || automation.info.status === "failed") return { status: "not_found" };
    this.runs.push({ name, context });
    try {
      await automation.execute(context);
      for (const listener of this.listeners) listener({ automation: name, durationMs: 0 });
      return { status: "ok" };
    } catch (error) {
      // As the real manager: only a webhook's run can refuse its request.
      const refusal = context.type === "webhook" ? webhookRefusalOf(error) : null;
      if (refusal) return { status: "refused", refusal };
      for (const listener of this.listeners) listener({ automation: name, durationMs: 0, error });
      return { status: "error", error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Webhook targets from the described triggers. A description carries no secret value, so a
   * test that needs one puts the whole secret under `webhookSecret` in the trigger description.
   */
  findWebhookTargets(path: string): WebhookTarget[] {
    const normalised = path.replace(/^\/+/, "");
    const targets: WebhookTarget[] = [];
    for (const { info } of this.automations.values()) {
      if (info.status !== "running") continue;
      for (const trigger of info.triggers) {
        if (trigger.type !== "webhook" || String(trigger.path).replace(/^\/+/, "") !== normalised) continue;
        const methods = (trigger.methods as string[] | undefined) ?? ["POST"];
        const secret = trigger.webhookSecret as WebhookSecret | undefined;
        targets.push({ name: info.name, methods, triggers: [{ methods, ...(secret ? { secret } : {}) }] });
      }
    }
    return targets;
  }

  /** Traces a test sets for an automation with `traces.set(name, ...)`. */
  readonly traces = new Map<string, { traces: RunTrace[]; rejected: TriggerRejection[] }>();

  getTraces(name: string): { traces: RunTrace[]; rejected: TriggerRejection[] } | null {
    if (!this.automations.has(name)) return null;
    return this.traces.get(name) ?? { traces: [], rejected: [] };
  }

  onRun(listener: (event: { automation: string; durationMs: number; error?: unknown }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onCatalogChange(listener: () => void): () => void {
    this.catalogListeners.add(listener);
    return () => this.catalogListeners.delete(listener);
  }
}
