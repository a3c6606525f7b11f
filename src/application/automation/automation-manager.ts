import {
  ATTACH_RUNTIME,
  type Automation,
  type AutomationConfig,
  isAutomationClass,
  isAutomationInstance,
  isKebabCase,
  type RunMode,
} from "./sdk/automation.js";
import { AutomationTimers } from "./automation-timers.js";
import {
  AutomationTraces,
  DEFAULT_TRACE_SETTINGS,
  endTrace,
  runInTrace,
  runOutsideTraces,
  type TraceRecord,
} from "./run-traces.js";
import { SELF_TRIGGER_WINDOW_MS, SelfTriggerWatch } from "./self-trigger-watch.js";
import { tracedLogger, tracedMqtt, tracedServices, tracedState } from "./traced-runtime.js";
import { systemTimer, type Timer, withinTime } from "../../ports/timer.js";
import type { Trigger, TriggerContext } from "../../domain/automation/trigger.js";
import { type WebhookRefusal, webhookRefusalOf } from "../../domain/automation/webhook-refusal.js";
import type { AutomationSource } from "../../ports/automation-source.js";
import { type Clock, systemClock } from "../../ports/clock.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { Logger } from "../../ports/logger.js";
import type { Scheduler } from "../../ports/scheduler.js";
import type {
  AutomationInfo,
  AutomationManagerApi,
  AutomationStats,
  RunTrace,
  TraceSettings,
  TriggerDescription,
  TriggerRejection,
  TriggerResult,
  TypeDiagnostic,
  WebhookTarget,
} from "../../ports/automation-catalog.js";
import type { DeviceRegistryApi } from "../../ports/device-registry.js";
import type { ServiceRegistryApi } from "../../ports/engine-services.js";
import type { MqttServiceApi } from "../../ports/mqtt-bus.js";
import type { StateManagerApi } from "../../ports/state-store.js";
import type { InventoryEventSourceApi } from "../../ports/inventory-events.js";
import {
  defaultWebhookHeader,
  handlerFor,
  normalizeWebhookPath,
  type Unwire,
  type WiringContext,
  webhookSecretOf,
} from "./trigger-handlers.js";

export interface AutomationManagerDependencies {
  logger: Logger;
  mqtt: MqttServiceApi;
  state: StateManagerApi;
  http: HttpClient;
  config: AutomationConfig;
  services: ServiceRegistryApi;
  deviceRegistry: DeviceRegistryApi | null;
  scheduler: Scheduler;
  /** Needed by discoverAndRegister only. */
  source?: AutomationSource;
  clock?: Clock;
  /** False when HTTP_PORT=0 (webhook triggers then warn). Default true. */
  httpEnabled?: boolean;
  /** Delivered inventory events for `inventory` triggers; absent when the inventory does not run here. */
  inventoryEvents?: InventoryEventSourceApi | null;
  /** Timers behind the automations' after()/every() helpers. Default: Node's. */
  timer?: Timer;
  /** Runs kept per automation and payload truncation. Default 20 runs, 2048 bytes. */
  traces?: TraceSettings;
  /**
   * Under a leader lease: whether this process may act on its lease now. False while the
   * lease has run out on this process's own clock and the database has not yet said whether
   * it is still this process's (it woke from a stall). Firings of every trigger but cron
   * (which the lease ledger fences) then wait, in order, until {@link AutomationManager.leaseConfirmed}
   * runs them or a stop drops them: messages that sat in the socket while the process was
   * stopped may already have run on the instance that took over. Absent: always true.
   */
  acting?: () => boolean;
}

/** How a load or reload of one file ended (the file watcher logs it). */
export type FileLoadOutcome =
  | { status: "registered" | "reloaded"; name: string }
  | { status: "failed"; error: string }
  /** The new version failed; the previous one is still running. */
  | { status: "kept_previous"; name: string; error: string };

type RunListener = (event: { automation: string; durationMs: number; error?: unknown }) => void;

/**
 * A run in progress. Its AbortController is made only when the run's code reads
 * `context.signal`: most runs never do, and the MQTT hot path should not pay for one.
 */
interface ActiveRun {
  controller: AbortController | undefined;
  aborted: boolean;
  reason: unknown;
}

function abortRun(run: ActiveRun, reason: Error): void {
  if (run.aborted) return;
  run.aborted = true;
  run.reason = reason;
  run.controller?.abort(reason);
}

/**
 * What execute() receives: the trigger context's fields copied onto an instance whose
 * `signal` is a getter of the class, not an own property, so the context stays the plain
 * data it was (JSON, deep equality). A per-run own getter (Object.defineProperty) made every
 * run several times slower: it forces V8's slow dictionary objects.
 */
class RunContext {
  readonly #run: ActiveRun;

  constructor(run: ActiveRun) {
    this.#run = run;
  }

  get signal(): AbortSignal {
    return signalOf(this.#run);
  }
}

function signalOf(run: ActiveRun): AbortSignal {
  run.controller ??= new AbortController();
  if (run.aborted && !run.controller.signal.aborted) run.controller.abort(run.reason);
  return run.controller.signal;
}

interface QueuedRun {
  context: TriggerContext;
  resolve: (result: TriggerResult) => void;
}

/** A firing that waits for the lease to be confirmed (see `acting`). */
interface HeldFiring extends QueuedRun {
  entry: RunningAutomation;
}

/**
 * Firings held at most while an unconfirmed lease is checked (half a renewal period, plus
 * what sat in the socket during a stall): enough for a home's messages, bounded all the same.
 */
const MAX_HELD_FIRINGS = 10_000;

interface RunningAutomation {
  name: string;
  file: string | null;
  automation: Automation;
  triggers: Trigger[];
  unwire: Unwire[];
  stats: {
    runs: number;
    errors: number;
    dropped: number;
    refused: number;
    lastRunAtMs: number | null;
    lastError: string | null;
    lastDurationMs: number | null;
  };
  logger: Logger;
  mode: RunMode;
  /** null: unlimited. */
  max: number | null;
  active: Set<ActiveRun>;
  queue: QueuedRun[];
  timers: AutomationTimers;
  traces: AutomationTraces;
  reloads: number;
  /** Set once {@link PILED_UP_RUNS} runs were in progress at once; cleared when none is. */
  pileUpWarned: boolean;
  loadedAtMs: number;
  reloadError: { message: string; at: string } | null;
  /** Whether runs need AsyncLocalStorage to stay traced after an await (async execute). */
  tracesAcrossAwaits: boolean;
  /** Present when the automation has MQTT triggers: notices it looping on its own publishes. */
  selfTriggers: SelfTriggerWatch | null;
}

/**
 * How long registration waits for an automation's onStart(): longer than one outbound HTTP call
 * with the client's default 30 s timeout, short enough that a hook that never settles fails.
 */
export const ON_START_LIMIT_MS = 60_000;
/** How long a stop or reload waits for onStop(): the whole shutdown gets 10 s, the state save included. */
export const ON_STOP_LIMIT_MS = 5_000;

const RUN_MODES: readonly RunMode[] = ["parallel", "single", "restart", "queued"];
const DEFAULT_QUEUED_MAX = 10;
/**
 * Runs in progress at once, in mode parallel without a max, at which the automation is warned
 * about: runs that never finish (awaiting a reply that does not come) pile up unseen, each
 * holding its trace and whatever it awaits.
 */
export const PILED_UP_RUNS = 100;
const OK: TriggerResult = Object.freeze({ status: "ok" });

interface FailedAutomation {
  name: string;
  file: string | null;
  error: string;
  triggers: Trigger[];
  /** The name it could not take because another automation had it: freeing it retries the file. */
  takenName?: string;
}

/** Why an automation was not registered; becomes its `status: "failed"` reason. */
class RegistrationFailure extends Error {
  constructor(
    message: string,
    /** Set when a duplicate name was among the problems. */
    readonly takenName?: string,
  ) {
    super(message);
  }
}

/** The reason a run's signal aborts with: a newer firing (restart mode), a stop or a reload. */
export class RunAbortedError extends Error {
  override readonly name = "AbortError";
}

/**
 * Loads automations, wires their triggers through the trigger-handler table, runs them
 * with error isolation and keeps per-automation statistics. A broken automation is
 * recorded as failed and never stops the engine.
 */
export class AutomationManager implements AutomationManagerApi {
  private readonly running = new Map<string, RunningAutomation>();
  private readonly failed: FailedAutomation[] = [];
  private readonly runListeners = new Set<RunListener>();
  private readonly catalogListeners = new Set<() => void>();
  private readonly clock: Clock;
  private readonly timer: Timer;
  private readonly traceSettings: TraceSettings;
  /** Runs still executing, so tests and the test kit can wait until everything settled. */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Runs whose execute() returned a promise that has not settled yet. */
  private asyncRuns = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly typeWarnings = new Map<string, TypeDiagnostic[]>();
  private readonly held: HeldFiring[] = [];

  constructor(private readonly dependencies: AutomationManagerDependencies) {
    this.clock = dependencies.clock ?? systemClock;
    this.timer = dependencies.timer ?? systemTimer;
    this.traceSettings = dependencies.traces ?? DEFAULT_TRACE_SETTINGS;
  }

  /**
   * Loads every .ts/.js file (not .d.ts) in `dir` (and below when `recursive`) and
   * registers its default-exported automation class. Returns how many registered and failed.
   */
  async discoverAndRegister(dir: string, recursive = false): Promise<{ registered: number; failed: number }> {
    const source = this.dependencies.source;
    if (!source) throw new TypeError("AutomationManager: discoverAndRegister needs an AutomationSource");
    const files = await source.listFiles(dir, recursive);
    let registered = 0;
    let failed = 0;
    for (const file of files) {
      const ok = await this.registerFile(source, file);
      if (ok) registered++;
      else failed++;
    }
    this.dependencies.logger.info("Automations discovered", { dir, files: files.length, registered, failed });
    return { registered, failed };
  }

  /**
   * Registers one automation: checks its name, required services, run mode and triggers,
   * wires every trigger (all or nothing), then calls onStart. Returns false when it failed;
   * the reason is logged and listed.
   */
  async register(automation: Automation, file: string | null = null): Promise<boolean> {
    const name = typeof automation?.name === "string" && automation.name !== "" ? automation.name : fileLabel(file);
    const triggers = Array.isArray(automation?.triggers) ? [...automation.triggers] : [];
    try {
      this.checkRegistrable(automation);
      await this.activate(automation, file, triggers);
      this.dependencies.logger.info("Automation registered", { automation: name, file, triggers: triggers.length });
      this.catalogChanged();
      return true;
    } catch (error) {
      const takenName = error instanceof RegistrationFailure ? error.takenName : undefined;
      this.recordFailure(name, file, triggers, errorMessage(error), takenName);
      return false;
    }
  }

  /**
   * Loads `file` afresh (a changed or added file): a new automation registers; one that
   * replaces a running version stops it (onStop, triggers, subscriptions and timers
   * removed) and registers. When the new version fails to load or register, the previous
   * one keeps running and the error is kept as its `reloadError`.
   */
  async loadFile(file: string): Promise<FileLoadOutcome> {
    const source = this.dependencies.source;
    if (!source) throw new TypeError("AutomationManager: loadFile needs an AutomationSource");
    const previous = [...this.running.values()].find((entry) => entry.file === file);
    let automation: Automation;
    try {
      automation = instantiate(await source.loadDefaultExport(file, { fresh: true }));
      if (previous) this.checkRegistrable(automation, previous.name);
    } catch (error) {
      const message = isRegistrationFailure(error) ? errorMessage(error) : `failed to load: ${errorMessage(error)}`;
      return this.reloadFailed(previous, file, message);
    }
    if (!previous) {
      this.forgetFailures(file);
      const ok = await this.register(automation, file);
      const failure = this.failed.find((entry) => entry.file === file);
      return ok
        ? { status: "registered", name: automation.name }
        : { status: "failed", error: failure?.error ?? "not registered" };
    }
    const release = this.holdSubscriptions(previous);
    try {
      await this.unregister(previous, "reloaded");
      try {
        await this.activate(automation, file, [...automation.triggers], previous);
      } catch (error) {
        await this.restore(previous);
        return this.reloadFailed(previous, file, errorMessage(error));
      }
    } finally {
      release();
    }
    this.dependencies.logger.info("Automation reloaded", {
      automation: automation.name,
      file,
      reloads: previous.reloads + 1,
    });
    this.catalogChanged();
    if (automation.name !== previous.name) await this.retryDuplicatesOf(previous.name);
    return { status: "reloaded", name: automation.name };
  }

  /**
   * Keeps the broker subscriptions of an automation being replaced while it is swapped: a
   * topic the new version subscribes too is never unsubscribed and subscribed again at the
   * broker, so no message slips through the gap between the two and the broker sees no churn.
   */
  private holdSubscriptions(entry: RunningAutomation): () => void {
    const mqtt = this.dependencies.mqtt;
    const hold = () => {};
    const topics = [...new Set(entry.triggers.flatMap((trigger) => (trigger.type === "mqtt" ? [trigger.topic] : [])))];
    for (const topic of topics) mqtt.subscribe(topic, hold);
    return () => {
      for (const topic of topics) mqtt.unsubscribe(topic, hold);
    };
  }

  /** A deleted file: its automation stops and is forgotten, as is a failure recorded for it. */
  async removeFile(file: string): Promise<string[]> {
    const removed: string[] = [];
    for (const entry of [...this.running.values()].filter((candidate) => candidate.file === file)) {
      await this.unregister(entry, "its file was removed");
      removed.push(entry.name);
      this.dependencies.logger.info("Automation removed", { automation: entry.name, file });
    }
    this.forgetFailures(file);
    this.catalogChanged();
    for (const name of removed) await this.retryDuplicatesOf(name);
    return removed;
  }

  /**
   * Loads again the files that failed only because `name` was taken, now that it is free: the
   * way an author resolves a duplicate is to delete or rename the other file, and nothing else
   * would make the waiting one load.
   */
  private async retryDuplicatesOf(name: string): Promise<void> {
    const waiting = this.failed.filter((entry) => entry.takenName === name && entry.file !== null);
    for (const entry of waiting) if (entry.file !== null) await this.loadFile(entry.file);
  }

  /** Calls every automation's onStop (newest first), unwires its triggers and forgets it. */
  async stopAll(): Promise<void> {
    this.dropHeld("this instance stopped leading the engine; the instance that took over may have run them");
    for (const entry of [...this.running.values()].reverse()) await this.unregister(entry, "the engine is stopping");
    this.failed.length = 0;
  }

  /** Replaces the type-check warnings of the `files` that were checked. */
  setTypeWarnings(files: readonly string[], diagnostics: readonly TypeDiagnostic[]): void {
    for (const file of files) this.typeWarnings.delete(file);
    for (const diagnostic of diagnostics) {
      const list = this.typeWarnings.get(diagnostic.file) ?? [];
      list.push(diagnostic);
      this.typeWarnings.set(diagnostic.file, list);
    }
    this.catalogChanged();
  }

  /** Resolves once no run is in progress or queued (tests, the test kit). */
  async idle(): Promise<void> {
    while (this.busy) {
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
      else await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
  }

  /** Whether a run is in progress or queued. */
  get busy(): boolean {
    return this.inFlight.size > 0 || this.asyncRuns > 0;
  }

  /** Files automations came from, running or failed (the file watcher). */
  files(): string[] {
    const files = [...this.running.values()].map((entry) => entry.file);
    return [
      ...new Set([...files, ...this.failed.map((entry) => entry.file)].filter((file): file is string => file !== null)),
    ];
  }

  /**
   * An error that reached the process instead of a run: a promise an automation rejected with
   * nobody awaiting it (`void this.later()`, an async callback, a rejection after its run
   * ended). The automation is the one whose file the error's stack passes through (the only
   * trace such an error carries); it is logged under that name and counted in its stats.
   * Returns the automation's name, or null when no automation's file is on the stack.
   */
  reportStrayError(error: unknown): string | null {
    const stack = error instanceof Error ? (error.stack ?? "") : "";
    const entry = stack === "" ? undefined : this.automationOnStack(stack);
    if (!entry) return null;
    return this.countStrayError(
      entry,
      error,
      "Unhandled promise rejection in the automation (a promise nobody awaited or caught)",
      "await it, or end it with .catch()",
    );
  }

  /**
   * An exception nobody caught, thrown by a raw `setTimeout`/`setInterval`/`setImmediate`
   * callback of an automation. Stricter than {@link reportStrayError}: an exception, unlike a
   * rejection, unwinds every frame below it, so it is the automation's alone only when the
   * function Node's timer queue called is in the automation's file (whatever it called in turn
   * failed inside the automation's call, as in `execute`). A callback of a library or of Hearth
   * that threw, or a stack too deep to show its bottom, may have left that code half done: null,
   * and the caller ends the process as Node would.
   */
  reportUncaughtException(error: unknown): string | null {
    const stack = error instanceof Error ? (error.stack ?? "") : "";
    const callback = timerCallbackFrame(stack);
    const entry = callback === null ? undefined : this.automationOnStack(callback);
    if (!entry) return null;
    return this.countStrayError(
      entry,
      error,
      "Uncaught exception in a timer callback of the automation (setTimeout, setInterval or setImmediate)",
      "catch it in the callback, or use this.after()/this.every(), whose errors the engine catches",
    );
  }

  /** The running automation whose file `frames` (a stack, or one frame of it) pass through. */
  private automationOnStack(frames: string): RunningAutomation | undefined {
    for (const entry of this.running.values()) {
      if (entry.file !== null && stackPassesThrough(frames, entry.file)) return entry;
    }
    return undefined;
  }

  private countStrayError(entry: RunningAutomation, error: unknown, message: string, hint: string): string {
    entry.stats.errors++;
    entry.stats.lastError = errorMessage(error);
    entry.logger.error(message, { err: error, hint });
    return entry.name;
  }

  getTraces(name: string): { traces: RunTrace[]; rejected: TriggerRejection[] } | null {
    const entry = this.running.get(name);
    if (!entry) return this.failed.some((failed) => failed.name === name) ? { traces: [], rejected: [] } : null;
    return { traces: entry.traces.list(), rejected: [...entry.traces.rejections.values()] };
  }

  /** Pending after()/every() timers of one automation (tests). */
  pendingTimers(name: string): number {
    return this.running.get(name)?.timers.pending ?? 0;
  }

  listAutomations(): AutomationInfo[] {
    return [
      ...[...this.running.values()].map((entry) => this.describeRunning(entry)),
      ...this.failed.map((entry) => this.describeFailed(entry)),
    ];
  }

  getAutomation(name: string): AutomationInfo | null {
    const entry = this.running.get(name);
    if (entry) return this.describeRunning(entry);
    const failed = this.failed.find((candidate) => candidate.name === name);
    return failed ? this.describeFailed(failed) : null;
  }

  /** The spec's manual trigger: false when no running automation has that name. */
  async triggerAutomation(name: string, context: TriggerContext): Promise<boolean> {
    const result = await this.runAutomation(name, context);
    return result.status !== "not_found";
  }

  /** Runs the automation as a firing of `context` would, through its run mode; resolves when the run ended. */
  async runAutomation(name: string, context: TriggerContext): Promise<TriggerResult> {
    const entry = this.running.get(name);
    if (!entry) return { status: "not_found" };
    return (await this.fire(entry, context)) ?? OK;
  }

  findWebhookTargets(requestPath: string): WebhookTarget[] {
    const wanted = normalizeWebhookPath(requestPath);
    const targets: WebhookTarget[] = [];
    for (const entry of this.running.values()) {
      const triggers: WebhookTarget["triggers"] = [];
      for (const trigger of entry.triggers) {
        if (trigger.type !== "webhook" || normalizeWebhookPath(trigger.path) !== wanted) continue;
        const secret = webhookSecretOf(trigger);
        triggers.push({ methods: trigger.methods ?? ["POST"], ...(secret ? { secret } : {}) });
      }
      if (triggers.length > 0) {
        targets.push({
          name: entry.name,
          methods: [...new Set(triggers.flatMap((trigger) => trigger.methods))],
          triggers,
        });
      }
    }
    return targets;
  }

  onRun(listener: RunListener): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  onCatalogChange(listener: () => void): () => void {
    this.catalogListeners.add(listener);
    return () => this.catalogListeners.delete(listener);
  }

  /** Tells the listeners that what listAutomations() answers changed (not its run counts). */
  private catalogChanged(): void {
    for (const listener of this.catalogListeners) {
      try {
        listener();
      } catch (error) {
        this.dependencies.logger.warn("An automation-list listener failed", { err: error });
      }
    }
  }

  /** Names of running automations. */
  get runningCount(): number {
    return this.running.size;
  }

  get failedCount(): number {
    return this.failed.length;
  }

  /** Wires and starts a checked automation; throws RegistrationFailure and leaves nothing behind. */
  private async activate(
    automation: Automation,
    file: string | null,
    triggers: Trigger[],
    previous?: RunningAutomation,
  ): Promise<RunningAutomation> {
    const entry = this.createEntry(automation, file, triggers, previous);
    this.wireAll(entry);
    this.running.set(entry.name, entry);
    try {
      await this.withinLimit(() => automation.onStart(), ON_START_LIMIT_MS, "onStart()");
    } catch (error) {
      this.running.delete(entry.name);
      unwireAll(entry.unwire);
      entry.timers.clearAll();
      throw new RegistrationFailure(`onStart() failed: ${errorMessage(error)}`);
    }
    return entry;
  }

  /**
   * Stops one automation: runs in progress see their signal abort, queued firings are
   * dropped, onStop runs, then its triggers, subscriptions and timers are removed.
   */
  private async unregister(entry: RunningAutomation, reason: string): Promise<void> {
    for (const run of entry.active) abortRun(run, new RunAbortedError(`Run aborted: ${reason}`));
    for (const queued of entry.queue.splice(0)) queued.resolve({ status: "dropped", reason });
    try {
      await this.withinLimit(() => entry.automation.onStop(), ON_STOP_LIMIT_MS, "onStop()");
    } catch (error) {
      entry.logger.error("onStop() failed", { err: error });
    }
    unwireAll(entry.unwire);
    entry.timers.clearAll();
    if (this.running.get(entry.name) === entry) this.running.delete(entry.name);
  }

  /**
   * Runs an author's lifecycle hook, but waits for it at most `limitMs`. Loading, reloading and
   * stopping go one automation at a time, so a hook that never settles (awaiting a message that
   * never comes) would hold every later file, and at shutdown the state save, for ever.
   */
  private async withinLimit(hook: () => Promise<void>, limitMs: number, label: string): Promise<void> {
    await withinTime(
      runOutsideTraces(hook),
      limitMs,
      () => {
        throw new Error(`${label} did not finish within ${limitMs / 1000} s`);
      },
      this.timer,
    );
  }

  /** Puts a version back after its replacement failed to register. */
  private async restore(entry: RunningAutomation): Promise<void> {
    try {
      this.wireAll(entry);
      this.running.set(entry.name, entry);
      await this.withinLimit(() => entry.automation.onStart(), ON_START_LIMIT_MS, "onStart()");
    } catch (error) {
      entry.logger.error("The previous version could not be restarted after a failed reload", { err: error });
    }
  }

  private reloadFailed(previous: RunningAutomation | undefined, file: string, message: string): FileLoadOutcome {
    if (!previous) {
      this.recordFailure(fileLabel(file), file, [], message);
      return { status: "failed", error: message };
    }
    const current = this.running.get(previous.name) ?? previous;
    current.reloadError = { message, at: this.clock.now().toISOString() };
    current.logger.error("Reload failed; the previous version keeps running", { file, reason: message });
    this.catalogChanged();
    return { status: "kept_previous", name: previous.name, error: message };
  }

  private forgetFailures(file: string): void {
    for (let index = this.failed.length - 1; index >= 0; index--) {
      if (this.failed[index]?.file === file) this.failed.splice(index, 1);
    }
  }

  private async registerFile(source: AutomationSource, file: string): Promise<boolean> {
    let exported: unknown;
    try {
      exported = await source.loadDefaultExport(file);
    } catch (error) {
      this.recordFailure(fileLabel(file), file, [], `failed to load: ${errorMessage(error)}`);
      return false;
    }
    let automation: Automation;
    try {
      automation = instantiate(exported);
    } catch (error) {
      this.recordFailure(fileLabel(file), file, [], errorMessage(error));
      return false;
    }
    return this.register(automation, file);
  }

  /** Collects every problem at once, so a user fixes an automation in one edit, not one per restart. */
  private checkRegistrable(automation: Automation, replacing?: string): void {
    if (!isAutomationInstance(automation))
      throw new RegistrationFailure("not an instance of a class extending Automation");
    const problems: string[] = [];
    if (!isKebabCase(automation.name)) {
      problems.push(`name ${JSON.stringify(automation.name)} is not kebab-case (e.g. "porch-light")`);
    }
    if (automation.mode !== undefined && !RUN_MODES.includes(automation.mode)) {
      problems.push(`mode ${JSON.stringify(automation.mode)} is not one of ${RUN_MODES.join(", ")}`);
    }
    if (automation.max !== undefined && !(Number.isInteger(automation.max) && automation.max > 0)) {
      problems.push(`max must be a whole number above 0, got ${JSON.stringify(automation.max)}`);
    }
    const existing = this.running.get(automation.name);
    const takenName = existing && existing.name !== replacing ? existing.name : undefined;
    if (existing && takenName !== undefined) {
      problems.push(`duplicate name "${automation.name}" (already registered from ${existing.file ?? "code"})`);
    }
    const missing = (automation.requiredServices ?? []).filter((key) => !this.dependencies.services.has(key));
    if (missing.length > 0) problems.push(`missing required service(s): ${missing.join(", ")}`);
    if (!Array.isArray(automation.triggers)) {
      problems.push("triggers must be an array");
    } else {
      automation.triggers.forEach((trigger, position) => {
        const handler = handlerFor(trigger);
        const problem = handler
          ? handler.validate(trigger, this.dependencies.scheduler)
          : `unknown trigger type ${JSON.stringify((trigger as { type?: unknown } | null)?.type)}`;
        if (problem) problems.push(`trigger ${position + 1} (${String(trigger?.type)}): ${problem}`);
      });
    }
    const [only, ...more] = problems;
    if (only === undefined) return;
    throw new RegistrationFailure(
      more.length === 0
        ? only
        : `${problems.length} problems: ${problems.map((problem, index) => `(${index + 1}) ${problem}`).join("; ")}`,
      takenName,
    );
  }

  private createEntry(
    automation: Automation,
    file: string | null,
    triggers: Trigger[],
    previous?: RunningAutomation,
  ): RunningAutomation {
    const { dependencies } = this;
    const name = automation.name;
    const settings = this.traceSettings;
    const logger = dependencies.logger.child({ automation: name });
    const timers = new AutomationTimers(this.timer, logger, (callback) => runOutsideTraces(callback));
    // A reload keeps the automation's history: "why did it (not) fire" spans edits.
    const traces = previous?.name === name ? previous.traces : new AutomationTraces(name, settings);
    const selfTriggers = this.watchSelfTriggers(triggers, logger);
    automation[ATTACH_RUNTIME]({
      mqtt: tracedMqtt(
        dependencies.mqtt,
        traces,
        settings,
        selfTriggers ? (topic) => selfTriggers.published(topic) : undefined,
      ),
      http: dependencies.http,
      state: tracedState(dependencies.state, traces, settings),
      logger: tracedLogger(logger, traces, settings, () => this.clock.now()),
      config: dependencies.config,
      services: tracedServices(dependencies.services, traces, settings),
      deviceRegistry: dependencies.deviceRegistry,
      clock: this.clock,
      timers,
    });
    const mode = automation.mode ?? "parallel";
    return {
      name,
      file,
      automation,
      triggers,
      unwire: [],
      stats: { runs: 0, errors: 0, dropped: 0, refused: 0, lastRunAtMs: null, lastError: null, lastDurationMs: null },
      logger,
      mode,
      max: automation.max ?? (mode === "queued" ? DEFAULT_QUEUED_MAX : null),
      active: new Set(),
      queue: [],
      timers,
      traces,
      reloads: previous ? previous.reloads + 1 : 0,
      pileUpWarned: false,
      loadedAtMs: this.clock.now().getTime(),
      reloadError: null,
      tracesAcrossAwaits: isAsyncFunction(automation.execute),
      selfTriggers,
    };
  }

  private watchSelfTriggers(triggers: Trigger[], logger: Logger): SelfTriggerWatch | null {
    const filters = triggers.flatMap((trigger) => (trigger.type === "mqtt" ? [trigger.topic] : []));
    if (filters.length === 0) return null;
    return new SelfTriggerWatch(
      filters,
      () => this.clock.now().getTime(),
      (topic, runs) =>
        logger.warn(
          "The automation keeps triggering itself: its runs publish to a topic its own MQTT trigger matches",
          {
            topic,
            runs,
            withinSeconds: SELF_TRIGGER_WINDOW_MS / 1000,
            hint: "publish somewhere its trigger does not listen (a device's /set topic), or let the trigger's filter skip its own messages",
          },
        ),
    );
  }

  /** Wires every trigger or none: a failure unwires the ones already wired. */
  private wireAll(entry: RunningAutomation): void {
    const { dependencies } = this;
    entry.triggers.forEach((trigger, position) => {
      const context: WiringContext = {
        automation: entry.name,
        triggerId: `${entry.name}#${position}`,
        fire: selfTriggerWatched(entry, trigger, (triggerContext) => {
          this.admit(entry, triggerContext);
        }),
        rejected: (payload) => {
          // The echo of its own publish that the filter turned away is used up, not left to a later message.
          if (entry.selfTriggers !== null && trigger.type === "mqtt") entry.selfTriggers.rejected(topicOf(payload));
          entry.traces.rejected(position, payload, this.clock.now());
        },
        mqtt: dependencies.mqtt,
        state: dependencies.state,
        scheduler: dependencies.scheduler,
        deviceRegistry: dependencies.deviceRegistry,
        logger: entry.logger,
        httpEnabled: dependencies.httpEnabled ?? true,
        inventoryEvents: dependencies.inventoryEvents ?? null,
      };
      try {
        entry.unwire.push((handlerFor(trigger) as NonNullable<ReturnType<typeof handlerFor>>).wire(trigger, context));
      } catch (error) {
        unwireAll(entry.unwire);
        throw new RegistrationFailure(
          `trigger ${position + 1} (${trigger.type}) could not be wired: ${errorMessage(error)}`,
        );
      }
    });
  }

  /**
   * A trigger's firing: run now, or held while the lease is unconfirmed. Once one is held,
   * later ones queue behind it so that they still run in the order they came.
   */
  private admit(entry: RunningAutomation, context: TriggerContext): void {
    const acting = this.dependencies.acting;
    if (acting === undefined || context.type === "cron" || (this.held.length === 0 && acting())) {
      this.fire(entry, context);
      return;
    }
    if (this.held.length >= MAX_HELD_FIRINGS) {
      this.drop(entry, context, "too many firings wait for the engine lease to be confirmed");
      return;
    }
    if (this.held.length === 0)
      this.dependencies.logger.warn(
        "The engine lease ran out on this process's clock (a stall?); firings wait until the database confirms it",
      );
    this.track(new Promise<TriggerResult>((resolve) => this.held.push({ entry, context, resolve })));
  }

  /**
   * The lease was renewed (see `acting`): runs the firings held meanwhile, in the order they
   * came, each through its automation's run mode. Those of an automation stopped or replaced
   * meanwhile are dropped.
   */
  leaseConfirmed(): void {
    if (this.held.length === 0) return;
    const held = this.held.splice(0);
    this.dependencies.logger.info("The engine lease was confirmed; running the firings held meanwhile", {
      firings: held.length,
    });
    for (const { entry, context, resolve } of held) {
      if (this.running.get(entry.name) !== entry) {
        resolve(this.drop(entry, context, "the automation stopped while the firing was held"));
        continue;
      }
      const result = this.fire(entry, context);
      if (result === undefined) resolve(OK);
      else void Promise.resolve(result).then(resolve);
    }
  }

  /** Drops the held firings: this process no longer leads (or stops), another instance may have run them. */
  private dropHeld(reason: string): void {
    if (this.held.length === 0) return;
    const held = this.held.splice(0);
    this.dependencies.logger.warn("Firings held for the engine lease were not run", {
      firings: held.length,
      reason,
    });
    for (const { entry, context, resolve } of held) resolve(this.drop(entry, context, reason));
  }

  /**
   * A firing, through the automation's run mode. Returns undefined when a synchronous
   * execute() succeeded (the MQTT hot path allocates no promise), else how the run ended.
   */
  private fire(entry: RunningAutomation, context: TriggerContext): TriggerResult | Promise<TriggerResult> | undefined {
    const busy = entry.active.size > 0;
    switch (entry.mode) {
      case "single":
        if (busy) return this.drop(entry, context, "a run is in progress (mode single)");
        break;
      case "parallel":
        if (entry.max !== null && entry.active.size >= entry.max)
          return this.drop(entry, context, `${entry.max} runs in progress (max)`);
        if (entry.max === null && entry.active.size + 1 >= PILED_UP_RUNS && !entry.pileUpWarned) {
          entry.pileUpWarned = true;
          entry.logger.warn(`${PILED_UP_RUNS} runs of this automation are in progress at once`, {
            hint: "runs that never finish pile up in mode parallel: give the automation a max, or another run mode",
          });
        }
        break;
      case "restart":
        for (const run of entry.active)
          abortRun(run, new RunAbortedError("Run aborted: a newer firing restarted the automation"));
        break;
      case "queued":
        if (!busy && entry.queue.length === 0) break;
        if (entry.active.size + entry.queue.length >= (entry.max ?? DEFAULT_QUEUED_MAX)) {
          return this.drop(entry, context, `${entry.max} runs in progress or waiting (max)`);
        }
        return this.track(new Promise<TriggerResult>((resolve) => entry.queue.push({ context, resolve })));
    }
    return this.start(entry, context);
  }

  private drop(entry: RunningAutomation, context: TriggerContext, reason: string): TriggerResult {
    entry.stats.dropped++;
    entry.logger.debug("Firing dropped", { trigger: context?.type, reason });
    return { status: "dropped", reason };
  }

  /** Starts one run: its own AbortSignal, trace and stats. */
  private start(entry: RunningAutomation, context: TriggerContext): TriggerResult | Promise<TriggerResult> | undefined {
    const run: ActiveRun = { controller: undefined, aborted: false, reason: undefined };
    entry.active.add(run);
    const startedAt = performance.now();
    const now = this.clock === systemClock ? new Date() : this.clock.now();
    entry.stats.runs++;
    entry.stats.lastRunAtMs = now.getTime();
    const trace = entry.traces.begin(context, now);
    const runContext = Object.assign(new RunContext(run), context) as unknown as TriggerContext;
    let result: unknown;
    try {
      result = runInTrace(
        trace,
        entry.traces,
        entry.tracesAcrossAwaits,
        entry.automation.execute,
        entry.automation,
        runContext,
      );
    } catch (error) {
      return this.finish(entry, run, trace, context, startedAt, error ?? new Error("execute() threw without a reason"));
    }
    if (result === null || typeof result !== "object" || typeof (result as Promise<void>).then !== "function") {
      const outcome = this.finish(entry, run, trace, context, startedAt, undefined);
      return outcome === OK ? undefined : outcome;
    }
    // A plain function that returned a promise: its next runs are traced across awaits too.
    entry.tracesAcrossAwaits = true;
    // Counted rather than tracked in inFlight: a Set entry and a second promise per run were a
    // good part of an async run's cost on the MQTT hot path.
    this.asyncRuns++;
    return (result as Promise<void>).then(
      () => this.settle(entry, run, trace, context, startedAt, undefined),
      (error: unknown) =>
        this.settle(entry, run, trace, context, startedAt, error ?? new Error("execute() rejected without a reason")),
    );
  }

  /** finish() for a run whose execute() returned a promise, which is no longer in flight. */
  private settle(
    entry: RunningAutomation,
    run: ActiveRun,
    trace: TraceRecord,
    context: TriggerContext,
    startedAt: number,
    failure: unknown,
  ): TriggerResult {
    try {
      return this.finish(entry, run, trace, context, startedAt, failure);
    } finally {
      if (--this.asyncRuns === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    const forget = () => this.inFlight.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Records a finished run, starts the next queued one, and says how it ended. */
  private finish(
    entry: RunningAutomation,
    run: ActiveRun,
    trace: TraceRecord,
    context: TriggerContext,
    startedAt: number,
    failure: unknown,
  ): TriggerResult {
    entry.active.delete(run);
    if (entry.active.size === 0) entry.pileUpWarned = false;
    endTrace(trace, entry.traces);
    const stats = entry.stats;
    const durationMs = performance.now() - startedAt;
    stats.lastDurationMs = durationMs;
    trace.durationMs = durationMs;
    const aborted = failure !== undefined && run.aborted;
    // Only a webhook's caller can be answered a client error; from any other trigger the
    // refusal reaches no one, so it is the automation's mistake and fails the run.
    const refusal = failure === undefined || aborted || context?.type !== "webhook" ? null : webhookRefusalOf(failure);
    if (failure === undefined) {
      trace.status = "ok";
    } else if (aborted) {
      trace.status = "aborted";
      trace.error = { message: errorMessage(failure) };
      entry.logger.debug("Run ended after its signal aborted", { trigger: context?.type });
    } else if (refusal) {
      this.recordRefusal(entry, trace, refusal);
    } else {
      trace.status = "error";
      trace.error =
        failure instanceof Error && failure.stack
          ? { message: errorMessage(failure), stack: authorStack(failure.stack) }
          : { message: errorMessage(failure) };
      stats.errors++;
      stats.lastError = errorMessage(failure);
      entry.logger.error("Automation failed", { trigger: context?.type, err: failure });
    }
    this.startNextQueued(entry);
    this.notifyRunListeners(entry, durationMs, aborted || refusal ? undefined : failure);
    if (failure === undefined) return OK;
    if (refusal) return { status: "refused", refusal };
    return aborted
      ? { status: "dropped", reason: errorMessage(failure) }
      : { status: "error", error: errorMessage(failure) };
  }

  /**
   * A webhook run that refused its request: the caller sent something wrong, so the run is
   * neither an error of the automation (stats, metrics, lastError) nor logged as one.
   */
  private recordRefusal(entry: RunningAutomation, trace: TraceRecord, refusal: WebhookRefusal): void {
    trace.status = "refused";
    trace.refusal = refusal;
    entry.stats.refused++;
    // `reason`, not `message`: the log format folds a `message` field into the line's text.
    entry.logger.info("Webhook request refused", {
      trigger: "webhook",
      status: refusal.status,
      reason: refusal.message,
    });
  }

  private startNextQueued(entry: RunningAutomation): void {
    if (entry.mode !== "queued" || entry.active.size > 0) return;
    const next = entry.queue.shift();
    if (!next) return;
    Promise.resolve(this.start(entry, next.context) ?? OK).then(next.resolve);
  }

  private notifyRunListeners(entry: RunningAutomation, durationMs: number, failure: unknown): void {
    if (this.runListeners.size === 0) return;
    const event =
      failure === undefined
        ? { automation: entry.name, durationMs }
        : { automation: entry.name, durationMs, error: failure };
    for (const listener of this.runListeners) {
      try {
        listener(event);
      } catch (error) {
        this.dependencies.logger.error("Run listener failed", { err: error });
      }
    }
  }

  private recordFailure(
    name: string,
    file: string | null,
    triggers: Trigger[],
    reason: string,
    takenName?: string,
  ): void {
    if (file !== null) this.forgetFailures(file);
    this.failed.push({ name, file, error: reason, triggers, ...(takenName === undefined ? {} : { takenName }) });
    this.dependencies.logger.error("Automation not registered", { automation: name, file, reason });
    this.catalogChanged();
  }

  private describeRunning(entry: RunningAutomation): AutomationInfo {
    const stats: AutomationStats = {
      runs: entry.stats.runs,
      errors: entry.stats.errors,
      dropped: entry.stats.dropped,
      refused: entry.stats.refused,
      lastRunAt: entry.stats.lastRunAtMs === null ? null : new Date(entry.stats.lastRunAtMs).toISOString(),
      lastError: entry.stats.lastError,
      lastDurationMs: entry.stats.lastDurationMs,
    };
    return {
      name: entry.name,
      file: entry.file,
      status: "running",
      triggers: entry.triggers.map(describeTrigger),
      stats,
      mode: entry.mode,
      max: entry.max,
      active: entry.active.size,
      queued: entry.queue.length,
      rejected: [...entry.traces.rejections.values()],
      reloadError: entry.reloadError,
      reloads: entry.reloads,
      loadedAt: new Date(entry.loadedAtMs).toISOString(),
      typeWarnings: entry.file === null ? [] : (this.typeWarnings.get(entry.file) ?? []),
    };
  }

  private describeFailed(entry: FailedAutomation): AutomationInfo {
    return {
      name: entry.name,
      file: entry.file,
      status: "failed",
      error: entry.error,
      triggers: entry.triggers.map(describeTrigger),
      stats: { runs: 0, errors: 0, dropped: 0, refused: 0, lastRunAt: null, lastError: null, lastDurationMs: null },
      typeWarnings: entry.file === null ? [] : (this.typeWarnings.get(entry.file) ?? []),
    };
  }
}

/** A stack without the engine's own frames below the automation's code: what the author needs to read. */
function authorStack(stack: string): string {
  return stack
    .split("\n")
    .filter(
      (line) =>
        !/application[\\/]automation[\\/](automation-manager|run-traces)\.[jt]s|node:async_hooks|node:internal\//.test(
          line,
        ),
    )
    .join("\n");
}

/**
 * Whether a stack trace has a frame in `file`: as a path (tsx's source-mapped frames) or as a
 * file URL (plain .js, and reloads, imported under `file://…?hearth-reload=n`).
 */
function stackPassesThrough(stack: string, file: string): boolean {
  return stack.includes(file) || stack.includes(encodeURI(file.replaceAll("\\", "/")));
}

/** An MQTT trigger's fire tells the automation's self-trigger watch first; other triggers fire as they are. */
function selfTriggerWatched(
  entry: RunningAutomation,
  trigger: Trigger,
  fire: (context: TriggerContext) => void,
): (context: TriggerContext) => void {
  const watch = entry.selfTriggers;
  if (watch === null || trigger.type !== "mqtt") return fire;
  return (context) => {
    if (context.type === "mqtt") watch.fired(context.topic);
    fire(context);
  };
}

/** The topic of an MQTT trigger's rejected message (`{ topic, payload }`). */
function topicOf(rejected: unknown): string {
  const topic = (rejected as { topic?: unknown } | null)?.topic;
  return typeof topic === "string" ? topic : "";
}

/** Node's own frames that run timer and immediate callbacks: always the bottom of their stack. */
const TIMER_QUEUE_FRAME =
  /^\s*at (?:listOnTimeout|process\.processTimers|process\.processImmediate) \(node:internal\/timers:/;

/**
 * The frame of the function a timer or immediate called, when the stack shows that call at its
 * bottom; else null (not from a timer, or cut off by `Error.stackTraceLimit` before the bottom).
 */
function timerCallbackFrame(stack: string): string | null {
  const frames = stack.split("\n").filter((line) => /^\s*at /.test(line));
  let bottom = frames.length;
  while (bottom > 0 && TIMER_QUEUE_FRAME.test(frames[bottom - 1] as string)) bottom--;
  if (bottom === frames.length || bottom === 0) return null;
  return frames[bottom - 1] as string;
}

function isAsyncFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === "[object AsyncFunction]";
}

function isRegistrationFailure(error: unknown): boolean {
  return error instanceof RegistrationFailure;
}

/** A trigger as JSON: its plain fields, and `hasFilter` instead of the filter function. */
export function describeTrigger(trigger: Trigger): TriggerDescription {
  if (trigger === null || typeof trigger !== "object") return { type: String(trigger) as Trigger["type"] };
  const description: TriggerDescription = { type: trigger.type };
  for (const [field, value] of Object.entries(trigger)) {
    if (field === "filter") description.hasFilter = typeof value === "function";
    else if (typeof value !== "function") description[field] = value;
  }
  if (trigger.type === "webhook" && trigger.methods === undefined) description.methods = ["POST"];
  if (trigger.type === "webhook" && trigger.secret !== undefined) {
    // The debug API and the web UI show that a secret is required and how, never its value.
    const secret = webhookSecretOf(trigger);
    description.secret = secret
      ? { type: secret.type, header: secret.header ?? defaultWebhookHeader(secret) }
      : undefined;
  }
  return description;
}

function instantiate(exported: unknown): Automation {
  if (isAutomationInstance(exported)) return exported;
  if (!isAutomationClass(exported)) {
    throw new RegistrationFailure("the default export is not a class extending Automation");
  }
  try {
    return new exported();
  } catch (error) {
    throw new RegistrationFailure(`constructor threw: ${errorMessage(error)}`);
  }
}

function unwireAll(unwire: Unwire[]): void {
  for (const undo of unwire.splice(0).reverse()) {
    try {
      undo();
    } catch {
      // Unwiring is best effort: a handler that is already gone is the state we want.
    }
  }
}

/** The file's name without folder or extension, as a stand-in name for an automation that failed to load. */
function fileLabel(file: string | null): string {
  if (!file) return "(unnamed)";
  // The source hands over absolute paths of either separator; no node:path in this layer.
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(ts|js|mts|mjs)$/, "");
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}
