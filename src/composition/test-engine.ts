/**
 * The test kit behind `import { createTestEngine } from "hearth/testing"`: the engine's real
 * AutomationManager, MqttService, StateManager, DeviceRegistry and cron scheduler, wired to
 * in-process fakes (an MQTT bus with the broker inside, a clock that moves only when told,
 * an HTTP client that never reaches the network, recording services). No broker, no network,
 * no real time; assertions throw node's AssertionError, so mocha, node:test and vitest all
 * report them.
 */
import { AssertionError } from "node:assert";
// tsyringe needs the Reflect metadata API loaded before it is.
import "reflect-metadata";
import { container } from "tsyringe";
import { CLOCK } from "../ports/clock.js";
import { HTTP_CLIENT } from "../ports/http-client.js";
import { LOGGER } from "../ports/logger.js";
import { MQTT_CLIENT } from "../ports/mqtt-client.js";
import { SCHEDULER } from "../ports/scheduler.js";
import { testKitEngineModule } from "./engine-modules.js";
import { MemoryLogger, type RecordedLogEntry } from "../adapters/logging/memory-logger.js";
import type { CronScheduler } from "../adapters/scheduling/cron-scheduler.js";
import type { FakeClock } from "../adapters/testing/fake-clock.js";
import type { FakeHttpClient } from "../adapters/testing/fake-http-client.js";
import type { LoopbackMqttClient, PublishedMessage } from "../adapters/testing/loopback-mqtt-client.js";
import { matchesPartially, show } from "../adapters/testing/match.js";
import { zigbee2MqttMessages } from "../adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { AutomationManager } from "../application/automation/automation-manager.js";
import type { AutomationInfo, RunTrace, TriggerRejection, TriggerResult } from "../ports/automation-catalog.js";
import { DeviceRegistry } from "../application/automation/device-registry.js";
import { MqttService } from "../application/automation/mqtt-service.js";
import { webhookAnswer } from "../application/automation/webhook-answer.js";
import { nonFiniteTriggerInput } from "../domain/automation/trigger-input.js";
import type { Automation, AutomationClass, AutomationConfig } from "../application/automation/sdk/automation.js";
import { isAutomationClass } from "../application/automation/sdk/automation.js";
import { ServiceRegistry } from "../application/automation/service-registry.js";
import { StateManager } from "../application/automation/state-manager.js";
import type { NotificationOptions } from "../domain/automation/notification.js";
import { topicMatches } from "../domain/automation/topic-filter.js";
import type { TriggerContext, WebhookMethod } from "../domain/automation/trigger.js";
import type { DeviceState, ZigbeeDevice } from "../domain/automation/zigbee-device.js";

export type { PublishedMessage } from "../adapters/testing/loopback-mqtt-client.js";
export type { FakeHttpAnswer, RecordedRequest } from "../adapters/testing/fake-http-client.js";
export { FakeHttpClient } from "../adapters/testing/fake-http-client.js";
export { parseDuration } from "../adapters/testing/fake-clock.js";
export {
  FakeLightPanels,
  type FakeLightPanelState,
  type FakeRelayDevice,
  FakeRelays,
  FakeWeather,
  type FakeWeatherConditions,
} from "../adapters/testing/fake-services.js";

/** A Zigbee device to simulate: a friendly name at least; the rest defaults to a generic end device. */
export type SimulatedDevice = string | ({ friendly_name: string } & Partial<ZigbeeDevice>);

/** Options of {@link createTestEngine}. */
export interface TestEngineOptions {
  /** The automations under test: classes (as default-exported) or instances. */
  automations: (AutomationClass | Automation)[];
  /** Where the fake clock starts. Default 2026-01-01T00:00:00Z. */
  now?: Date | string | number;
  /** Time zone cron expressions are read in. Default UTC, so tests do not depend on the machine. */
  timeZone?: string;
  /** Settings automations read through `this.config`. */
  config?: Partial<AutomationConfig> & Record<string, unknown>;
  /** State before the automations start. */
  state?: Record<string, unknown>;
  /** Zigbee devices already in the network (no join events). */
  devices?: SimulatedDevice[];
  /**
   * Services by key. Every method call on them is recorded in `serviceCalls`. A
   * `notifications` service is provided (recording into `notifications`) unless given here;
   * pass `notifications: null` to test an engine without one.
   */
  services?: Record<string, object | null>;
  /** Zigbee2MQTT base topic. Default `zigbee2mqtt`. */
  zigbeePrefix?: string;
  /** Runs each automation's trace keeps. Default 20. */
  traceRuns?: number;
}

/** A webhook request as the test kit sends it. */
export interface TestWebhookRequest {
  /** Default POST. */
  method?: WebhookMethod;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/**
 * What a webhook call did: 404 no automation has the path, 405 none accepts the method, 400
 * (nothing ran) the body holds NaN or ±Infinity (TRIGGER_INPUT_NOT_FINITE), 500 one failed, else the status of the first that refused the request (WebhookRefusedError,
 * 400–499), else 409 when a run mode dropped a firing (a `single` automation already running),
 * else 200: the answers of the engine's `/webhook/*`.
 */
export interface TestWebhookResponse {
  status: number;
  /** Each automation that ran, and how its run ended. */
  results: { automation: string; result: TriggerResult }[];
}

/** A service method call. */
export interface ServiceCall {
  service: string;
  method: string;
  args: unknown[];
}

/** Simulated Zigbee2MQTT: devices join, leave and report state as the bridge would publish it. */
export interface SimulatedDevices {
  /** A device joins: device_joined triggers fire. */
  join(device: SimulatedDevice): Promise<ZigbeeDevice>;
  /** A device leaves: device_left triggers fire. */
  leave(friendlyName: string): Promise<void>;
  /** A device publishes (partial) state: device_state triggers fire with the merged state. */
  report(friendlyName: string, state: DeviceState): Promise<void>;
  /** The devices the bridge lists now. */
  list(): ZigbeeDevice[];
}

/** An in-process engine running the automations under test. Create it with {@link createTestEngine}. */
export interface TestEngine {
  /** The fake clock's time. */
  now(): Date;
  /**
   * Moves the fake clock forward (`"15m"`, `"1h30m"`, `"500ms"` or a number of ms), firing
   * the cron triggers and `after()`/`every()` timers that fall due, in order, and waiting
   * for the runs they start.
   */
  advance(duration: string | number): Promise<void>;
  /** Publishes as a device would (an object is sent as JSON) and waits for the runs it starts. */
  publish(topic: string, payload: unknown, options?: { retain?: boolean }): Promise<void>;
  /** Everything the automations published, oldest first. */
  readonly published: readonly PublishedMessage[];
  /** Messages published on topics matching `filter` (`+` and `#` work). */
  publishedTo(filter: string): PublishedMessage[];
  /** Asserts a message was published on a topic matching `filter` whose payload matches `payload` partially. Returns it. */
  expectPublished(filter: string, payload?: unknown): PublishedMessage;
  /** Asserts nothing (matching `payload`) was published on topics matching `filter` (default: anything). */
  expectNothingPublished(filter?: string, payload?: unknown): void;
  /** Forgets what was published, notified and called so far. */
  clear(): void;
  /** The engine's state (read it, or `set` to fire state triggers; then `await settle()`). */
  readonly state: StateManager;
  /** Sets a state value and waits for the runs it starts. */
  setState(key: string, value: unknown): Promise<void>;
  /** Simulated Zigbee2MQTT devices. */
  readonly devices: SimulatedDevices;
  /** Notifications sent through `notify()` or the notifications service. */
  readonly notifications: readonly NotificationOptions[];
  /** Asserts a notification matching `options` partially was sent. Returns it. */
  expectNotified(options: Partial<Record<keyof NotificationOptions, unknown>>): NotificationOptions;
  /** Every method call on a service, in order. */
  readonly serviceCalls: readonly ServiceCall[];
  /** Outbound HTTP: set answers with `http.on(...)`, read `http.requests`. */
  readonly http: FakeHttpClient;
  /** Calls `/webhook/<path>` as the engine's HTTP server would (secrets are not checked here). */
  webhook(path: string, request?: TestWebhookRequest): Promise<TestWebhookResponse>;
  /** Runs an automation with a hand-made context (through its run mode), as the debug API's manual trigger. */
  trigger(name: string, context: TriggerContext): Promise<TriggerResult>;
  /** An automation as the debug API shows it (status, stats, mode, rejections, ...). Throws when unknown. */
  info(name: string): AutomationInfo;
  /** Its recent runs, newest first, and what its filters rejected. */
  traces(name: string): { traces: RunTrace[]; rejected: TriggerRejection[] };
  /** Every log entry so far (automations' entries carry `fields.automation`). */
  readonly logs: readonly RecordedLogEntry[];
  /** Waits until no run is in progress or queued and pending promise callbacks ran. */
  settle(): Promise<void>;
  /** Stops the automations (onStop) and clears their triggers and timers. */
  stop(): Promise<void>;
  /** The engine's manager, for what the helpers above do not cover. */
  readonly manager: AutomationManager;
}

const DEFAULT_TEST_CONFIG: AutomationConfig = { ZIGBEE2MQTT_PREFIX: "zigbee2mqtt", TZ: "UTC", HTTP_PORT: 8080 };

/**
 * Starts the automations under test in an in-process engine with a fake MQTT bus, fake
 * clock, state, simulated Zigbee devices, recorded notifications, service calls and HTTP.
 *
 * @example
 * ```ts
 * // MotionLight: the class an automation file default-exports.
 * const t = await createTestEngine({ automations: [MotionLight] });
 * await t.publish("zigbee2mqtt/hallway_motion", { occupancy: true });
 * t.expectPublished("zigbee2mqtt/hallway_light/set", { state: "ON" });
 * await t.advance("2m");
 * t.expectPublished("zigbee2mqtt/hallway_light/set", { state: "OFF" });
 * await t.stop();
 * ```
 */
export async function createTestEngine(options: TestEngineOptions): Promise<TestEngine> {
  if (!options || !Array.isArray(options.automations)) {
    throw new TypeError("createTestEngine({ automations: [MyAutomation] }) needs the automations to test");
  }
  const prefix = options.zigbeePrefix ?? "zigbee2mqtt";
  const logEntries: RecordedLogEntry[] = [];
  const logger = new MemoryLogger(logEntries);
  const scope = container.createChildContainer();
  scope.register(LOGGER, { useValue: logger });
  testKitEngineModule({
    timeZone: options.timeZone ?? "UTC",
    ...(options.now !== undefined ? { now: options.now } : {}),
  })(scope);
  const clock = scope.resolve<FakeClock>(CLOCK);
  const client = scope.resolve<LoopbackMqttClient>(MQTT_CLIENT);
  const mqtt = new MqttService(client, logger.child({ module: "mqtt" }), { zigbeePrefix: prefix });
  const state = new StateManager({ persist: false }, { logger: logger.child({ module: "state" }), timer: clock });
  for (const [key, value] of Object.entries(options.state ?? {})) state.set(key, value);
  const deviceRegistry = new DeviceRegistry({
    messages: zigbee2MqttMessages,
    mqtt,
    prefix,
    logger: logger.child({ module: "device-registry" }),
    timers: {
      setTimeout: (callback, ms) => clock.setTimeout(callback, ms),
      clearTimeout: (handle) => clock.clearTimeout(handle as object),
    },
  });
  const http = scope.resolve<FakeHttpClient>(HTTP_CLIENT);
  const notifications: NotificationOptions[] = [];
  const serviceCalls: ServiceCall[] = [];
  const services = new ServiceRegistry(logger.child({ module: "services" }));
  const given = options.services ?? {};
  if (!("notifications" in given)) {
    const send = async (notification: NotificationOptions) => {
      notifications.push(notification);
      return { ok: true as const, channel: notification.channel ?? "default" };
    };
    services.register("notifications", recording("notifications", { send }, serviceCalls));
  }
  for (const [key, service] of Object.entries(given)) {
    if (service === null || service === undefined) continue;
    const clocked = service as { useClock?: (now: () => Date) => void };
    if (typeof clocked.useClock === "function") clocked.useClock(() => clock.now());
    const recorded = recording(key, service, serviceCalls);
    services.register(key, key === "notifications" ? capturingNotifications(recorded, notifications) : recorded);
  }
  const scheduler = scope.resolve<CronScheduler>(SCHEDULER);
  const manager = new AutomationManager({
    logger,
    mqtt,
    state,
    http,
    config: { ...DEFAULT_TEST_CONFIG, ZIGBEE2MQTT_PREFIX: prefix, TZ: options.timeZone ?? "UTC", ...options.config },
    services,
    deviceRegistry,
    scheduler,
    clock,
    timer: clock,
    traces: { runs: options.traceRuns ?? 20, payloadBytes: 2048 },
  });

  await mqtt.connect();
  await deviceRegistry.start();
  const devices = new Zigbee2MqttSimulator(client, prefix, (options.devices ?? []).map(toDevice));
  devices.publishList();

  const settle = async (): Promise<void> => {
    // Two quiet turns of the event loop in a row: promise chains of the runs (awaited fake
    // HTTP answers, service calls) have run, and nothing new started.
    let quiet = 0;
    while (quiet < 2) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (manager.busy) {
        quiet = 0;
        await manager.idle();
      } else {
        quiet++;
      }
    }
  };
  devices.settle = settle;

  for (const automation of options.automations) {
    const instance = isAutomationClass(automation) ? new automation() : automation;
    const ok = await manager.register(instance);
    if (!ok) {
      const failure = manager.listAutomations().find((info) => info.status === "failed");
      throw new Error(
        `createTestEngine: automation ${failure?.name ?? "?"} did not register: ${failure?.error ?? "unknown reason"}`,
      );
    }
  }
  await settle();

  const publishedTo = (filter: string) => client.published.filter((message) => topicMatches(filter, message.topic));
  let stopped = false;

  return {
    now: () => clock.now(),
    advance: (duration) => clock.advance(duration, settle),
    async publish(topic, payload, publishOptions) {
      client.deliver(topic, payload, publishOptions);
      await settle();
    },
    published: client.published,
    publishedTo,
    expectPublished(filter, payload) {
      const candidates = publishedTo(filter);
      const found = candidates.find((message) => payload === undefined || matchesPartially(message.payload, payload));
      if (found) return found;
      throw new AssertionError({
        message:
          `Expected a message on ${filter}${payload === undefined ? "" : ` matching ${show(payload)}`}, ` +
          `but ${describePublished(client.published)}`,
        actual: client.published.map(({ topic, payload: sent }) => ({ topic, payload: sent })),
        expected: { topic: filter, payload },
      });
    },
    expectNothingPublished(filter = "#", payload) {
      const found = publishedTo(filter).filter(
        (message) => payload === undefined || matchesPartially(message.payload, payload),
      );
      if (found.length === 0) return;
      throw new AssertionError({
        message: `Expected nothing on ${filter}${payload === undefined ? "" : ` matching ${show(payload)}`}, but ${describePublished(found)}`,
        actual: found.map(({ topic, payload: sent }) => ({ topic, payload: sent })),
        expected: [],
      });
    },
    clear() {
      client.published.length = 0;
      notifications.length = 0;
      serviceCalls.length = 0;
      http.requests.length = 0;
    },
    state,
    async setState(key, value) {
      state.set(key, value);
      await settle();
    },
    devices,
    notifications,
    expectNotified(match) {
      const found = notifications.find((notification) => matchesPartially(notification, match));
      if (found) return found;
      throw new AssertionError({
        message: `Expected a notification matching ${show(match)}, but ${notifications.length === 0 ? "none was sent" : `got ${show(notifications)}`}`,
        actual: [...notifications],
        expected: match,
      });
    },
    serviceCalls,
    http,
    async webhook(path, request = {}) {
      const method = request.method ?? "POST";
      const targets = manager.findWebhookTargets(path);
      if (targets.length === 0) return { status: 404, results: [] };
      const accepting = targets.filter((target) => target.methods.includes(method));
      if (accepting.length === 0) return { status: 405, results: [] };
      // The engine refuses such a body before anything runs; a test of it must read that 400 too.
      if (nonFiniteTriggerInput(request.body) !== null) return { status: 400, results: [] };
      const context: TriggerContext = {
        type: "webhook",
        path: path.replace(/^\/+|\/+$/g, ""),
        method,
        headers: request.headers ?? {},
        query: request.query ?? {},
        body: request.body,
      };
      const results = await Promise.all(
        accepting.map(async (target) => ({
          automation: target.name,
          result: await manager.runAutomation(target.name, context),
        })),
      );
      await settle();
      return { status: webhookAnswer(results.map(({ result }) => result)).status, results };
    },
    async trigger(name, context) {
      const result = await manager.runAutomation(name, context);
      await settle();
      return result;
    },
    info(name) {
      const info = manager.getAutomation(name);
      if (!info)
        throw new AssertionError({ message: `No automation named "${name}" is registered in this test engine` });
      return info;
    },
    traces(name) {
      const traces = manager.getTraces(name);
      if (!traces)
        throw new AssertionError({ message: `No automation named "${name}" is registered in this test engine` });
      return traces;
    },
    logs: logEntries,
    settle,
    async stop() {
      if (stopped) return;
      stopped = true;
      await manager.stopAll();
      scheduler.stopAll();
      await deviceRegistry.stop();
      await mqtt.disconnect();
    },
    manager,
  };
}

/** A proxy recording every method call on `service` into `calls`. */
function recording<T extends object>(key: string, service: T, calls: ServiceCall[]): T {
  return new Proxy(service, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        calls.push({ service: key, method: property, args });
        return (value as (...callArgs: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A notifications service the test supplied: its sends are also collected for expectNotified. */
function capturingNotifications(service: object, notifications: NotificationOptions[]): object {
  const send = (service as { send?: unknown }).send;
  if (typeof send !== "function") return service;
  return new Proxy(service, {
    get(target, property, receiver) {
      if (property !== "send") return Reflect.get(target, property, receiver);
      return (notification: NotificationOptions) => {
        notifications.push(notification);
        return (send as (options: NotificationOptions) => unknown).call(receiver, notification);
      };
    },
  });
}

function describePublished(messages: readonly PublishedMessage[]): string {
  if (messages.length === 0) return "nothing was published";
  const lines = messages.slice(-10).map((message) => `  ${message.topic} ${message.raw}`);
  return `these were published${messages.length > 10 ? ` (last 10 of ${messages.length})` : ""}:\n${lines.join("\n")}`;
}

let ieeeSequence = 0;

function toDevice(device: SimulatedDevice): ZigbeeDevice {
  const given = typeof device === "string" ? { friendly_name: device } : device;
  return {
    ieee_address: `0x00124b00${String(++ieeeSequence).padStart(8, "0")}`,
    type: "EndDevice",
    supported: true,
    interview_completed: true,
    definition: { model: "TEST-1", vendor: "Hearth test kit", description: "Simulated device", exposes: [] },
    ...given,
  };
}

/** Publishes what Zigbee2MQTT would on the fake bus. */
class Zigbee2MqttSimulator implements SimulatedDevices {
  settle: () => Promise<void> = async () => {};
  private readonly coordinator: ZigbeeDevice = {
    ieee_address: "0x00124b0000000000",
    friendly_name: "Coordinator",
    type: "Coordinator",
  };

  constructor(
    private readonly client: LoopbackMqttClient,
    private readonly prefix: string,
    private readonly devices: ZigbeeDevice[],
  ) {}

  list(): ZigbeeDevice[] {
    return [...this.devices];
  }

  publishList(): void {
    this.client.deliver(`${this.prefix}/bridge/devices`, [this.coordinator, ...this.devices], { retain: true });
  }

  async join(device: SimulatedDevice): Promise<ZigbeeDevice> {
    const joined = toDevice(device);
    this.devices.push(joined);
    this.client.deliver(`${this.prefix}/bridge/event`, {
      type: "device_joined",
      data: { friendly_name: joined.friendly_name, ieee_address: joined.ieee_address },
    });
    this.publishList();
    await this.settle();
    return joined;
  }

  async leave(friendlyName: string): Promise<void> {
    const at = this.devices.findIndex((device) => device.friendly_name === friendlyName);
    if (at < 0) throw new AssertionError({ message: `No simulated device named "${friendlyName}" to leave` });
    const [device] = this.devices.splice(at, 1) as [ZigbeeDevice];
    this.client.deliver(`${this.prefix}/bridge/event`, {
      type: "device_leave",
      data: { friendly_name: device.friendly_name, ieee_address: device.ieee_address },
    });
    this.publishList();
    await this.settle();
  }

  async report(friendlyName: string, state: DeviceState): Promise<void> {
    this.client.deliver(`${this.prefix}/${friendlyName}`, state);
    await this.settle();
  }
}
