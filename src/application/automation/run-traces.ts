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
 * lists are made on first use, the trigger is kept as it came and times stay numbers until
 * the trace is read ({@link TraceRecord.toRunTrace}).
 */
export class TraceRecord {
  durationMs: number | null = null;
  status: RunTrace["status"] = "running";
  error: RunTrace["error"] = undefined;
  refusal: RunTrace["refusal"] = undefined;
  logs: RunTrace["logs"] | null = null;
  published: RunTrace["published"] | null = null;
  stateChanges: RunTrace["stateChanges"] | null = null;
  serviceCalls: RunTrace["serviceCalls"] | null = null;
  omitted: RunTrace["omitted"] | null = null;
  /** JSON text within the size limit, or the truncated form. */
  trigger: string | Record<string, unknown> = "{}";
  /**
   * The trigger context itself until the trace is read: serialising it for every run was the
   * largest single cost of a run, and most traces are overwritten unread.
   */
  context: TriggerContext | undefined = undefined;
  payloadBytes = 0;

  constructor(
    readonly id: number,
    readonly automation: string,
    readonly startedAtMs: number,
  ) {}

  toRunTrace(): RunTrace {
    if (this.context !== undefined) {
      this.trigger = triggerText(redactSecretHeaders(this.context), this.payloadBytes);
      this.context = undefined;
    }
    return {
      id: this.id,
      automation: this.automation,
      trigger: typeof this.trigger === "string" ? (JSON.parse(this.trigger) as Record<string, unknown>) : this.trigger,
      startedAt: new Date(this.startedAtMs).toISOString(),
      durationMs: this.durationMs,
      status: this.status,
      ...(this.error ? { error: this.error } : {}),
      ...(this.refusal ? { refusal: this.refusal } : {}),
      logs: this.logs ?? [],
      published: this.published ?? [],
      stateChanges: this.stateChanges ?? [],
      serviceCalls: this.serviceCalls ?? [],
      omitted: this.omitted ?? {},
    };
  }
}

/**
 * Whose runs a traced member (logger, mqtt, state, services) records into: one automation.
 * `unscoped` is the trace of its one run in progress that runs without AsyncLocalStorage.
 */
export interface TraceOwner {
  readonly automation: string;
  unscoped: TraceRecord | undefined;
}

/**
 * The trace of synchronous automation code running now. A plain variable: in Node 20 the
 * first AsyncLocalStorage.run() turns on async hooks for every promise in the process, a
 * cost an engine whose automations are all synchronous should not pay.
 */
let syncTrace: TraceRecord | undefined;
let asyncContextUsed = false;

/** What syncTrace (and the async context) hold while code runs outside every run. */
const OUTSIDE = new TraceRecord(0, "", 0);

/**
 * Runs `fn.call(self, argument)` as part of `trace`, without a closure per run. With
 * `acrossAwaits` (async execute functions) what it does after an `await` is recorded there
 * too. An automation's only run in progress needs no async context for that: code of that
 * automation running later outside any other run can only be that run's, so it is found
 * through `owner.unscoped` and async hooks stay off. Only a run that overlaps another run
 * of the same automation goes through AsyncLocalStorage.
 */
export function runInTrace<A, R>(
  trace: TraceRecord,
  owner: TraceOwner,
  acrossAwaits: boolean,
  fn: (this: unknown, argument: A) => R,
  self: unknown,
  argument: A,
): R {
  const before = syncTrace;
  syncTrace = trace;
  try {
    if (!acrossAwaits) return fn.call(self, argument);
    // Once async hooks are on (an overlap happened), the async context is the exact answer and
    // costs little more; before, it is entered only when this automation already has a run.
    if (owner.unscoped === undefined && !asyncContextUsed) {
      owner.unscoped = trace;
      return fn.call(self, argument);
    }
    asyncContextUsed = true;
    return runScope.run(trace, () => fn.call(self, argument));
  } finally {
    syncTrace = before;
  }
}

/** Tells the owner that the run of `trace` ended: later code is no longer part of it. */
export function endTrace(trace: TraceRecord, owner: TraceOwner): void {
  if (owner.unscoped === trace) owner.unscoped = undefined;
}

/** Runs `fn` outside any trace (timer callbacks must not grow a run that already ended). */
export function runOutsideTraces<T>(fn: () => T): T {
  const before = syncTrace;
  syncTrace = OUTSIDE;
  try {
    // With async hooks on anyway, the marker follows fn's awaits too.
    return asyncContextUsed ? runScope.run(OUTSIDE, fn) : fn();
  } finally {
    syncTrace = before;
  }
}

/** The trace of the running code of `owner`'s automation, if it belongs to a run. */
export function currentTrace(owner: TraceOwner): TraceRecord | undefined {
  const trace = syncTrace ?? (asyncContextUsed ? runScope.getStore() : undefined);
  if (trace === OUTSIDE) return undefined;
  if (trace !== undefined && trace.automation === owner.automation) return trace;
  // No run of this automation is executing synchronously: code of it running now (after an
  // await) belongs to its one unscoped run, if it has one.
  return owner.unscoped;
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

/**
 * Whether a trigger is kept as it came and serialised only when its trace is read: MQTT
 * messages, the hot path, whose JSON payloads are small. A long non-JSON payload ({ raw }),
 * and every other trigger type (webhook bodies, state values), is cut at once, so the ring
 * never holds megabytes.
 */
function servedLazily(context: TriggerContext, maxBytes: number): boolean {
  if (context.type !== "mqtt") return false;
  const raw = (context.payload as { raw?: unknown }).raw;
  return typeof raw !== "string" || raw.length <= maxBytes;
}

/** The last `settings.runs` traces of one automation, and what its trigger filters rejected. */
export class AutomationTraces implements TraceOwner {
  unscoped: TraceRecord | undefined = undefined;
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
    if (servedLazily(context, this.settings.payloadBytes)) {
      trace.context = context;
      trace.payloadBytes = this.settings.payloadBytes;
    } else {
      // A webhook's token or bearer credential must not reach the web UI through its trace.
      trace.trigger = triggerText(redactSecretHeaders(context), this.settings.payloadBytes);
    }
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
