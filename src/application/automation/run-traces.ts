// AsyncLocalStorage is how a run's log lines, publishes, state changes and service calls
// find their trace across every `await` of the automation's code, without the author
// passing anything along.
import { AsyncLocalStorage } from "node:async_hooks";
import type { TriggerContext } from "../../domain/automation/trigger.js";
import type { RunTrace, TraceSettings, TriggerRejection } from "./contracts.js";

/** Most entries of each list (log lines, publishes, ...) one trace keeps; later ones are counted. */
export const MAX_TRACE_ITEMS = 50;

export const DEFAULT_TRACE_SETTINGS: TraceSettings = { runs: 20, payloadBytes: 2048 };

/** The trace of the run whose code is executing now, if any. */
const runScope = new AsyncLocalStorage<RunTrace>();

/** Runs `fn` as part of `trace`: everything it does, awaited or not, is recorded there. */
export function runInTrace<T>(trace: RunTrace, fn: () => T): T {
  return runScope.run(trace, fn);
}

/** Runs `fn` outside any trace (timer callbacks must not grow a run that already ended). */
export function runOutsideTraces<T>(fn: () => T): T {
  return runScope.exit(fn);
}

/** The trace of the running automation code, when it belongs to `automation`. */
export function currentTrace(automation: string): RunTrace | undefined {
  const trace = runScope.getStore();
  return trace?.automation === automation ? trace : undefined;
}

/**
 * A value as a trace keeps it: as-is when its JSON fits in `maxBytes`, else a preview of
 * its JSON text, so one huge payload cannot hold on to megabytes per trace.
 */
export function truncateForTrace(value: unknown, maxBytes: number): unknown {
  if (value === undefined || value === null || typeof value === "number" || typeof value === "boolean") return value ?? null;
  let text: string | undefined;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    return "[not serialisable]";
  }
  if (text === undefined) return null;
  if (text.length <= maxBytes) return typeof value === "string" ? value : JSON.parse(text);
  return { truncated: true, bytes: text.length, preview: text.slice(0, maxBytes) };
}

/**
 * Keeps a run's trigger context as JSON text (within the size limit), parsed only when the
 * trace is read: every run records one, few are ever looked at.
 */
function keepTrigger(trace: RunTrace, trigger: object, maxBytes: number): void {
  let text: string;
  try {
    text = JSON.stringify(trigger);
  } catch {
    trace.trigger = { unserialisable: true };
    return;
  }
  if (text.length > maxBytes) {
    trace.trigger = { truncated: true, bytes: text.length, preview: text.slice(0, maxBytes) };
    return;
  }
  let parsed: Record<string, unknown> | undefined;
  Object.defineProperty(trace, "trigger", {
    enumerable: true,
    configurable: true,
    get: () => {
      parsed ??= JSON.parse(text) as Record<string, unknown>;
      return parsed;
    },
  });
}

/** Appends to one of a trace's lists, counting what does not fit. */
export function addToTrace<K extends "logs" | "published" | "stateChanges" | "serviceCalls">(
  trace: RunTrace,
  list: K,
  item: RunTrace[K][number],
): void {
  const items = trace[list] as RunTrace[K][number][];
  if (items.length >= MAX_TRACE_ITEMS) {
    trace.omitted[list] = (trace.omitted[list] ?? 0) + 1;
    return;
  }
  items.push(item);
}

/** The last `settings.runs` traces of one automation, and what its trigger filters rejected. */
export class AutomationTraces {
  private readonly traces: RunTrace[] = [];
  private sequence = 0;
  /** By trigger position. */
  readonly rejections = new Map<number, TriggerRejection>();

  constructor(
    readonly automation: string,
    readonly settings: TraceSettings,
  ) {}

  begin(context: TriggerContext, startedAt: Date): RunTrace {
    const { signal: _signal, ...trigger } = context;
    const trace: RunTrace = {
      id: ++this.sequence,
      automation: this.automation,
      trigger: {},
      startedAt: startedAt.toISOString(),
      durationMs: null,
      status: "running",
      logs: [],
      published: [],
      stateChanges: [],
      serviceCalls: [],
      omitted: {},
    };
    if (this.settings.runs <= 0) return trace;
    keepTrigger(trace, trigger, this.settings.payloadBytes);
    this.traces.push(trace);
    if (this.traces.length > this.settings.runs) this.traces.shift();
    return trace;
  }

  /** A trigger event a filter turned away: counted, and the last payload kept. */
  rejected(position: number, payload: unknown, at: Date): void {
    const entry = this.rejections.get(position) ?? { trigger: position, count: 0, lastAt: null, lastPayload: null };
    entry.count++;
    entry.lastAt = at.toISOString();
    entry.lastPayload = truncateForTrace(payload, this.settings.payloadBytes);
    this.rejections.set(position, entry);
  }

  /** Newest first. */
  list(): RunTrace[] {
    return [...this.traces].reverse();
  }

  get(id: number): RunTrace | undefined {
    return this.traces.find((trace) => trace.id === id);
  }
}
