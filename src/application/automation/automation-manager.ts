import {
  ATTACH_RUNTIME,
  type Automation,
  type AutomationConfig,
  isAutomationClass,
  isAutomationInstance,
  isKebabCase,
} from "./sdk/automation.js";
import type { Trigger, TriggerContext } from "../../domain/automation/trigger.js";
import type { AutomationSource } from "../../ports/automation-source.js";
import { type Clock, systemClock } from "../../ports/clock.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { Logger } from "../../ports/logger.js";
import type { Scheduler } from "../../ports/scheduler.js";
import type { AutomationInfo, AutomationManagerApi, AutomationStats, TriggerDescription, TriggerResult, WebhookTarget } from "../../ports/automation-catalog.js";
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
}

type RunListener = (event: { automation: string; durationMs: number; error?: unknown }) => void;

interface RunningAutomation {
  name: string;
  file: string | null;
  automation: Automation;
  triggers: Trigger[];
  unwire: Unwire[];
  stats: { runs: number; errors: number; lastRunAtMs: number | null; lastError: string | null; lastDurationMs: number | null };
  logger: Logger;
}

interface FailedAutomation {
  name: string;
  file: string | null;
  error: string;
  triggers: Trigger[];
}

/** Why an automation was not registered; becomes its `status: "failed"` reason. */
class RegistrationFailure extends Error {}

/**
 * Loads automations, wires their triggers through the trigger-handler table, runs them
 * with error isolation and keeps per-automation statistics. A broken automation is
 * recorded as failed and never stops the engine.
 */
export class AutomationManager implements AutomationManagerApi {
  private readonly running = new Map<string, RunningAutomation>();
  private readonly failed: FailedAutomation[] = [];
  private readonly runListeners = new Set<RunListener>();
  private readonly clock: Clock;

  constructor(private readonly dependencies: AutomationManagerDependencies) {
    this.clock = dependencies.clock ?? systemClock;
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
   * Registers one automation: checks its name, required services and triggers, wires
   * every trigger (all or nothing), then calls onStart. Returns false when it failed; the
   * reason is logged and listed.
   */
  async register(automation: Automation, file: string | null = null): Promise<boolean> {
    const name = typeof automation?.name === "string" && automation.name !== "" ? automation.name : fileLabel(file);
    const triggers = Array.isArray(automation?.triggers) ? [...automation.triggers] : [];
    try {
      this.checkRegistrable(automation);
      const entry = this.createEntry(automation, file, triggers);
      this.wireAll(entry);
      this.running.set(entry.name, entry);
      try {
        await automation.onStart();
      } catch (error) {
        this.running.delete(entry.name);
        unwireAll(entry.unwire);
        throw new RegistrationFailure(`onStart() failed: ${errorMessage(error)}`);
      }
      this.dependencies.logger.info("Automation registered", { automation: name, file, triggers: triggers.length });
      return true;
    } catch (error) {
      this.recordFailure(name, file, triggers, errorMessage(error));
      return false;
    }
  }

  /** Calls every automation's onStop (newest first), unwires its triggers and forgets it. */
  async stopAll(): Promise<void> {
    for (const entry of [...this.running.values()].reverse()) {
      try {
        await entry.automation.onStop();
      } catch (error) {
        entry.logger.error("onStop() failed", { err: error });
      }
      unwireAll(entry.unwire);
      this.running.delete(entry.name);
    }
    this.failed.length = 0;
  }

  listAutomations(): AutomationInfo[] {
    return [
      ...[...this.running.values()].map((entry) => this.describeRunning(entry)),
      ...this.failed.map((entry) => describeFailed(entry)),
    ];
  }

  getAutomation(name: string): AutomationInfo | null {
    const entry = this.running.get(name);
    if (entry) return this.describeRunning(entry);
    const failed = this.failed.find((candidate) => candidate.name === name);
    return failed ? describeFailed(failed) : null;
  }

  /** The spec's manual trigger: false when no running automation has that name. */
  async triggerAutomation(name: string, context: TriggerContext): Promise<boolean> {
    const result = await this.runAutomation(name, context);
    return result.status !== "not_found";
  }

  async runAutomation(name: string, context: TriggerContext): Promise<TriggerResult> {
    const entry = this.running.get(name);
    if (!entry) return { status: "not_found" };
    const error = await this.execute(entry, context);
    return error === undefined ? { status: "ok" } : { status: "error", error: errorMessage(error) };
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
        targets.push({ name: entry.name, methods: [...new Set(triggers.flatMap((trigger) => trigger.methods))], triggers });
      }
    }
    return targets;
  }

  onRun(listener: RunListener): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  /** Names of running automations. */
  get runningCount(): number {
    return this.running.size;
  }

  get failedCount(): number {
    return this.failed.length;
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
  private checkRegistrable(automation: Automation): void {
    if (!isAutomationInstance(automation)) throw new RegistrationFailure("not an instance of a class extending Automation");
    const problems: string[] = [];
    if (!isKebabCase(automation.name)) {
      problems.push(`name ${JSON.stringify(automation.name)} is not kebab-case (e.g. "porch-light")`);
    }
    const existing = this.running.get(automation.name);
    if (existing) {
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
    if (problems.length === 1) throw new RegistrationFailure(problems[0]);
    if (problems.length > 1) {
      throw new RegistrationFailure(`${problems.length} problems: ${problems.map((problem, index) => `(${index + 1}) ${problem}`).join("; ")}`);
    }
  }

  private createEntry(automation: Automation, file: string | null, triggers: Trigger[]): RunningAutomation {
    const { dependencies } = this;
    const logger = dependencies.logger.child({ automation: automation.name });
    automation[ATTACH_RUNTIME]({
      mqtt: dependencies.mqtt,
      http: dependencies.http,
      state: dependencies.state,
      logger,
      config: dependencies.config,
      services: dependencies.services,
      deviceRegistry: dependencies.deviceRegistry,
    });
    return {
      name: automation.name,
      file,
      automation,
      triggers,
      unwire: [],
      stats: { runs: 0, errors: 0, lastRunAtMs: null, lastError: null, lastDurationMs: null },
      logger,
    };
  }

  /** Wires every trigger or none: a failure unwires the ones already wired. */
  private wireAll(entry: RunningAutomation): void {
    const { dependencies } = this;
    entry.triggers.forEach((trigger, position) => {
      const context: WiringContext = {
        automation: entry.name,
        triggerId: `${entry.name}#${position}`,
        fire: (triggerContext) => {
          this.execute(entry, triggerContext);
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
        throw new RegistrationFailure(`trigger ${position + 1} (${trigger.type}) could not be wired: ${errorMessage(error)}`);
      }
    });
  }

  /**
   * Runs execute(); resolves with the error it threw, or undefined. Never rejects. A
   * synchronous execute() finishes without allocating a promise (the MQTT hot path).
   */
  private execute(entry: RunningAutomation, context: TriggerContext): Promise<unknown> | undefined {
    const startedAt = performance.now();
    entry.stats.runs++;
    entry.stats.lastRunAtMs = this.clock === systemClock ? Date.now() : this.clock.now().getTime();
    let result: unknown;
    try {
      result = entry.automation.execute(context);
    } catch (error) {
      return Promise.resolve(this.finish(entry, context, startedAt, error ?? new Error("execute() threw without a reason")));
    }
    if (result === null || typeof result !== "object" || typeof (result as Promise<void>).then !== "function") {
      this.finish(entry, context, startedAt, undefined);
      return undefined;
    }
    return (result as Promise<void>).then(
      () => this.finish(entry, context, startedAt, undefined),
      (error: unknown) => this.finish(entry, context, startedAt, error ?? new Error("execute() rejected without a reason")),
    );
  }

  /** Records a finished run; returns its failure (undefined when it succeeded). */
  private finish(entry: RunningAutomation, context: TriggerContext, startedAt: number, failure: unknown): unknown {
    const stats = entry.stats;
    const durationMs = performance.now() - startedAt;
    stats.lastDurationMs = durationMs;
    if (failure !== undefined) {
      stats.errors++;
      stats.lastError = errorMessage(failure);
      entry.logger.error("Automation failed", { trigger: context?.type, err: failure });
    }
    if (this.runListeners.size === 0) return failure;
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
    return failure;
  }

  private recordFailure(name: string, file: string | null, triggers: Trigger[], reason: string): void {
    this.failed.push({ name, file, error: reason, triggers });
    this.dependencies.logger.error("Automation not registered", { automation: name, file, reason });
  }

  private describeRunning(entry: RunningAutomation): AutomationInfo {
    const stats: AutomationStats = {
      runs: entry.stats.runs,
      errors: entry.stats.errors,
      lastRunAt: entry.stats.lastRunAtMs === null ? null : new Date(entry.stats.lastRunAtMs).toISOString(),
      lastError: entry.stats.lastError,
      lastDurationMs: entry.stats.lastDurationMs,
    };
    return { name: entry.name, file: entry.file, status: "running", triggers: entry.triggers.map(describeTrigger), stats };
  }
}

function describeFailed(entry: FailedAutomation): AutomationInfo {
  return {
    name: entry.name,
    file: entry.file,
    status: "failed",
    error: entry.error,
    triggers: entry.triggers.map(describeTrigger),
    stats: { runs: 0, errors: 0, lastRunAt: null, lastError: null, lastDurationMs: null },
  };
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
    description.secret = secret ? { type: secret.type, header: secret.header ?? defaultWebhookHeader(secret) } : undefined;
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
  return typeof error === "string" ? error : JSON.stringify(error) ?? String(error);
}
