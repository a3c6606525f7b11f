/**
 * The loaded automations as HTTP routers, metrics and the web UI see them: what is
 * running, how it went, and how to run one by hand (the AutomationManager implements it).
 */
import type { Trigger, TriggerContext, WebhookSecret } from "../domain/automation/trigger.js";
import type { WebhookRefusal } from "../domain/automation/webhook-refusal.js";
import type { TypeDiagnostic } from "./type-checker.js";

export type { TypeDiagnostic, WebhookRefusal };

export interface AutomationStats {
  runs: number;
  errors: number;
  /** Firings turned away by the run mode (`single` while running, `max` reached). */
  dropped?: number;
  /** Webhook runs that refused their request (WebhookRefusedError): the caller's mistake, not counted in `errors`. */
  refused?: number;
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
  /** Run mode and its limit (see the Automation's `mode` and `max`). */
  mode?: "parallel" | "single" | "restart" | "queued";
  max?: number | null;
  /** Runs in progress and waiting (queued mode). */
  active?: number;
  queued?: number;
  /** Trigger events a filter rejected, by trigger position (answers "why didn't it fire?"). */
  rejected?: TriggerRejection[];
  /** Why the last reload of its file failed; the previous version kept running. */
  reloadError?: { message: string; at: string } | null;
  /** How often it was reloaded since start, and when it was last loaded. */
  reloads?: number;
  loadedAt?: string | null;
  /** Type errors of its file, from the background type check (warnings: it runs anyway). */
  typeWarnings?: TypeDiagnostic[];
}

/** Outcome of a manual trigger. */
export type TriggerResult =
  | { status: "not_found" }
  | { status: "ok" }
  | { status: "error"; error: string }
  | { status: "dropped"; reason: string }
  /** A webhook run threw WebhookRefusedError: the request is answered with `refusal`. */
  | { status: "refused"; refusal: WebhookRefusal };

/** How many runs each automation's trace keeps, and how big a payload may be before it is truncated. */
export interface TraceSettings {
  runs: number;
  payloadBytes: number;
}

/** Trigger events a filter turned away. */
export interface TriggerRejection {
  /** Position of the trigger in the automation's `triggers` (0-based). */
  trigger: number;
  count: number;
  lastAt: string | null;
  /** The last rejected payload (truncated like trace payloads). */
  lastPayload: unknown;
}

/** One run of an automation, as its trace keeps it. Payloads are truncated to `TraceSettings.payloadBytes`. */
export interface RunTrace {
  id: number;
  automation: string;
  /** The trigger context the run got (without its signal). */
  trigger: Record<string, unknown>;
  startedAt: string;
  durationMs: number | null;
  status: "running" | "ok" | "error" | "aborted" | "refused";
  error?: { message: string; stack?: string };
  /** How a `refused` run answered its webhook request. */
  refusal?: WebhookRefusal;
  logs: { time: string; level: string; msg: string; fields?: unknown }[];
  published: { topic: string; payload: unknown; retain?: boolean }[];
  stateChanges: { key: string; newValue: unknown; deleted?: boolean }[];
  serviceCalls: { service: string; method: string; args: unknown }[];
  /** How many entries of each list did not fit (50 per list). */
  omitted: Partial<Record<"logs" | "published" | "stateChanges" | "serviceCalls", number>>;
}

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
  /** The automation's recent runs (newest first) and filter rejections, or null when it is unknown. */
  getTraces(name: string): { traces: RunTrace[]; rejected: TriggerRejection[] } | null;
  /** Called for every run (metrics); returns an unsubscribe function. */
  onRun(listener: (event: { automation: string; durationMs: number; error?: unknown }) => void): () => void;
  /**
   * Called when the list of automations changes other than by runs: one registered, reloaded,
   * removed, failed to load or reload, or its type warnings replaced; returns an unsubscribe function.
   */
  onCatalogChange(listener: () => void): () => void;
}
