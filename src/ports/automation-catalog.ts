/**
 * The loaded automations as HTTP routers, metrics and the web UI see them: what is
 * running, how it went, and how to run one by hand (the AutomationManager implements it).
 */
import type { Trigger, TriggerContext, WebhookSecret } from "../domain/automation/trigger.js";

export interface AutomationStats {
  runs: number;
  errors: number;
  /** ISO-8601 or null. */
  lastRunAt: string | null;
  lastError: string | null;
  lastDurationMs: number | null;
}

/** A trigger as JSON: the trigger's fields, functions replaced by `hasFilter`. */
export type TriggerDescription = { type: Trigger["type"]; hasFilter?: boolean } & Record<string, unknown>;

export interface AutomationInfo {
  name: string;
  /** File it was loaded from, or null when registered programmatically. */
  file: string | null;
  status: "running" | "failed";
  error?: string;
  triggers: TriggerDescription[];
  stats: AutomationStats;
}

/** Outcome of a manual trigger. */
export type TriggerResult = { status: "not_found" } | { status: "ok" } | { status: "error"; error: string };

/** One automation a webhook path reaches: the methods it accepts, and each trigger's secret. */
export interface WebhookTarget {
  name: string;
  /** Every method any of its triggers on the path accepts. */
  methods: string[];
  /** Its triggers on the path; a request is let through by one whose method matches and whose secret (if any) it proves. */
  triggers: { methods: string[]; secret?: WebhookSecret }[];
}

export interface AutomationManagerApi {
  listAutomations(): AutomationInfo[];
  getAutomation(name: string): AutomationInfo | null;
  /** Runs execute(context) and reports how it ended (the spec's boolean form is triggerAutomation). */
  runAutomation(name: string, context: TriggerContext): Promise<TriggerResult>;
  /** Automations whose webhook triggers match `path`, with the methods each accepts. */
  findWebhookTargets(path: string): WebhookTarget[];
  /** Called for every run (metrics); returns an unsubscribe function. */
  onRun(listener: (event: { automation: string; durationMs: number; error?: unknown }) => void): () => void;
}
