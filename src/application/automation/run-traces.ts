// AsyncLocalStorage is how a run's log lines, publishes, state changes and service calls
// find their trace across every `await` of the automation's code, without the author
// passing anything along.
import { AsyncLocalStorage } from "node:async_hooks";
import type { TriggerContext } from "../../domain/automation/trigger.js";
import { redactSecretHeaders } from "../../domain/shared/secret-headers.js";
import type { RunTrace, TraceSettings, TriggerRejection } from "../../ports/automation-catalog.js";

/** Most entries of each list (log lines, publishes, ...) one trace keeps; later ones are counted. */
export const MAX_TRACE_ITEMS = 50;

export const DEFAULT_TRACE_SETTINGS: TraceSettings = { runs: 20, payloadBytes: 2048 };

/** The trace of the run whose code is executing now, if any. */
const runScope = new AsyncLocalStorage<TraceRecord>();

type TraceList = "logs" | "published" | "stateChanges" | "serviceCalls";

/**
 * One run as it is being recorded. Every run makes one, and the last N of each automation
 * live long enough to reach V8's old generation, so it is kept small and of one shape:
 * lists are made on first use, the trigger stays JSON text and times stay numbers until the
 * trace is read ({@link TraceRecord.toRunTrace}).
 */
export class TraceRecord {
  durationMs: number | null = null;
  status: RunTrace["status"] = "running";
  error: RunTrace["error"] = undefined;
  logs: RunTrace["logs"] | null = null;
  published: RunTrace["published"] | null = null;
  stateChanges: RunTrace["stateChanges"] | null = null;
  serviceCalls: RunTrace["serviceCalls"] | null = null;
  omitted: RunTrace["omitted"] | null = null;
  /** JSON text within the size limit, or the truncated form. */
  trigger: string | Record<string, unknown> = "{}";

  constructor(
    readonly id: number,
    readonly automation: string,
    readonly startedAtMs: number,
  ) {}

  toRunTrace(): RunTrace {
    return {
      id: this.id,
      automation: this.automation,
      trigger: typeof this.trigger === "string" ? (JSON.parse(this.trigger) as Record<string, unknown>) : this.trigger,
      startedAt: new Date(this.startedAtMs).toISOString(),
      durationMs: this.durationMs,
      status: this.status,
      ...(this.error ? { error: this.error } : {}),
      logs: this.logs ?? [],
      published: this.published ?? [],
      stateChanges: this.stateChanges ?? [],
      serviceCalls: this.serviceCalls ?? [],
      omitted: this.omitted ?? {},
    };
  }
}

/**
 * The trace of synchronous automation code running now. A plain variable: in Node 20 the
 * first AsyncLocalStorage.run() turns on async hooks for every promise in the process, a
 * cost an engine whose automations are all synchronous should not pay.
 */
let syncTrace: TraceRecord | undefined;
let asyncContextUsed = false;

/**
 * Runs `fn` as part of `trace`. With `acrossAwaits` (async execute functions) everything it
 * does after an `await` is recorded there too, through AsyncLocalStorage.
 */
export function runInTrace<T>(trace: TraceRecord, fn: () => T, acrossAwaits: boolean): T {
  const before = syncTrace;
  syncTrace = trace;
  try {
    if (!acrossAwaits) return fn();
    asyncContextUsed = true;
    return runScope.run(trace, fn);
  } finally {
    syncTrace = before;
  }
}

/** Runs `fn` outside any trace (timer callbacks must not grow a run that already ended). */
export function runOutsideTraces<T>(fn: () => T): T {
  const before = syncTrace;
  syncTrace = undefined;
  try {
    return asyncContextUsed ? runScope.exit(fn) : fn();
  } finally {
    syncTrace = before;
  }
}

/** The trace of the running automation code, when it belongs to `automation`. */
export function currentTrace(automation: string): TraceRecord | undefined {
  const trace = syncTrace ?? (asyncContextUsed ? runScope.getStore() : undefined);
  return trace?.automation === automation ? trace : undefined;
}

/**
 * A value as a trace keeps it, secret headers redacted: as-is when its JSON fits in `maxBytes`, else a preview of
 * its JSON text, so one huge payload cannot hold on to megabytes per trace.
 */
export function truncateForTrace(raw: unknown, maxBytes: number): unknown {
  // Whatever a run logs, publishes or passes on may hold a request's headers: their secrets stay out.
  const value = redactSecretHeaders(raw);
  if (value === undefined || value === null || typeof value === "number" || typeof value === "boolean")
    return value ?? null;
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

/** Appends to one of a trace's lists, counting what does not fit. */
export function addToTrace<K extends TraceList>(trace: TraceRecord, list: K, item: RunTrace[K][number]): void {
  const items = (trace[list] ?? []) as RunTrace[K][number][];
  if (items.length >= MAX_TRACE_ITEMS) {
    trace.omitted ??= {};
    trace.omitted[list] = (trace.omitted[list] ?? 0) + 1;
    return;
  }
  items.push(item);
  (trace as unknown as Record<TraceList, unknown>)[list] = items;
}

/** The trigger context as JSON text within `maxBytes`, else its truncated form. */
function triggerText(trigger: object, maxBytes: number): string | Record<string, unknown> {
  let text: string;
  try {
    text = JSON.stringify(trigger);
  } catch {
    return { unserialisable: true };
  }
  return text.length > maxBytes ? { truncated: true, bytes: text.length, preview: text.slice(0, maxBytes) } : text;
}

/** The last `settings.runs` traces of one automation, and what its trigger filters rejected. */
export class AutomationTraces {
  /** A ring: the oldest trace is overwritten, so keeping traces costs no array churn. */
  private readonly ring: (TraceRecord | undefined)[];
  private next = 0;
  private sequence = 0;
  /** By trigger position. */
  readonly rejections = new Map<number, TriggerRejection>();

  constructor(
    readonly automation: string,
    readonly settings: TraceSettings,
  ) {
    this.ring = new Array(Math.max(0, settings.runs));
  }

  begin(context: TriggerContext, startedAt: Date): TraceRecord {
    const trace = new TraceRecord(++this.sequence, this.automation, startedAt.getTime());
    if (this.ring.length === 0) return trace;
    // A webhook's token or bearer credential must not reach the web UI through its trace.
    trace.trigger = triggerText(redactSecretHeaders(context), this.settings.payloadBytes);
    this.ring[this.next] = trace;
    this.next = (this.next + 1) % this.ring.length;
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
    const traces: RunTrace[] = [];
    for (let step = 1; step <= this.ring.length; step++) {
      const trace = this.ring[(this.next - step + this.ring.length) % this.ring.length];
      if (trace) traces.push(trace.toRunTrace());
    }
    return traces;
  }
}
