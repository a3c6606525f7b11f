import type { RequestHandler, Response } from "express";
import type { AutomationManagerApi } from "../../../ports/automation-catalog.js";
import type { DeviceRegistryApi, DeviceStateHandler } from "../../../ports/device-registry.js";
import type { LogBuffer, LogEntry } from "../../../ports/log-buffer.js";
import type { MqttServiceApi } from "../../../ports/mqtt-bus.js";
import { LOG_LEVELS } from "../../../ports/log-buffer.js";
import type { ServiceHealth } from "../../../ports/service-health.js";
import type { StateChangeHandler, StateManagerApi } from "../../../ports/state-store.js";
import { systemTimer, type Timer, type TimerHandle } from "../../../ports/timer.js";
import type { ZigbeeDevice } from "../../../domain/automation/zigbee-device.js";
import { sendError } from "./engine-errors.js";

/** What the engine's event stream reports on. */
export interface EngineEventSources {
  state: Pick<StateManagerApi, "onAnyChange" | "offAnyChange">;
  manager: Pick<AutomationManagerApi, "onRun" | "onCatalogChange">;
  /** The broker connection, whose drops and returns the overview shows. */
  mqtt: Pick<MqttServiceApi, "onConnectionChange">;
  logs: Pick<LogBuffer, "subscribe">;
  deviceRegistry: DeviceRegistryApi | null;
  /** Every registered service's health; must not do I/O (ServiceHealthReporter's contract). */
  servicesHealth: () => ServiceHealth[];
}

export interface EngineEventStreamsOptions {
  /** Streams open at once over this engine (the engine's /api and /api/v1/house together). Default 20. */
  maxStreams?: number;
  /** Keep-alive comment interval. Default 15 s. */
  heartbeatMs?: number;
  /**
   * How often the services' health and the device list are compared with the last report while
   * streams are open. Default 5 s.
   */
  healthCheckMs?: number;
  /** Bytes a client may leave unread before it is dropped. Default 256 KiB. */
  maxBufferedBytes?: number;
  /** Log lines sent per second at most; the rest are counted in a `log.skipped` event. Default 50. */
  maxLogLinesPerSecond?: number;
  timer?: Timer;
  now?: () => number;
}

/** A value or a log line larger than this (as JSON) is sent cut down. */
const MAX_VALUE_CHARS = 2048;
const MAX_MESSAGE_CHARS = 500;

interface Client {
  res: Response;
}

/**
 * The engine's live events as Server-Sent Events (`GET /api/events`, `/api/v1/house/events`):
 * state changes, finished automation runs, changes of the automation list, the broker connection
 * dropping or coming back, log lines (info and above), device and service-health
 * changes, and a `: ping` comment every heartbeat. The engine's sources are followed only while a
 * stream is open. A client that does not read (more than `maxBufferedBytes` unsent) is dropped
 * rather than buffered for; `close()` (the engine stops) ends every stream.
 */
export class EngineEventStreams {
  private readonly clients = new Set<Client>();
  private readonly timer: Timer;
  private readonly now: () => number;
  private readonly maxStreams: number;
  private readonly heartbeatMs: number;
  private readonly healthCheckMs: number;
  private readonly maxBuffered: number;
  private readonly maxLogLines: number;
  private detach: (() => void) | null = null;
  private heartbeat: TimerHandle | null = null;
  private healthCheck: TimerHandle | null = null;
  private health = new Map<string, string>();
  private logWindow = { startedAt: 0, sent: 0, skipped: 0 };
  private stopped = false;
  private syncDevices: (() => void) | null = null;

  constructor(
    private readonly sources: EngineEventSources,
    options: EngineEventStreamsOptions = {},
  ) {
    this.timer = options.timer ?? systemTimer;
    this.now = options.now ?? Date.now;
    this.maxStreams = options.maxStreams ?? 20;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.healthCheckMs = options.healthCheckMs ?? 5000;
    this.maxBuffered = options.maxBufferedBytes ?? 256 * 1024;
    this.maxLogLines = options.maxLogLinesPerSecond ?? 50;
  }

  /** Streams open now. */
  get size(): number {
    return this.clients.size;
  }

  /** The route: 503 while the engine is stopped, 429 (Retry-After) beyond `maxStreams`. */
  handler(): RequestHandler {
    return (req, res) => {
      if (this.stopped) {
        sendError(res, 503, "The engine is stopping or stopped; no events to follow");
        return;
      }
      if (this.clients.size >= this.maxStreams) {
        res.set("Retry-After", "30");
        sendError(res, 429, `Too many open event streams (at most ${this.maxStreams}); close one and retry`);
        return;
      }
      res.status(200);
      res.set({
        "Content-Type": "text/event-stream; charset=utf-8",
        // no-transform keeps proxies (and any compression middleware) from buffering the stream.
        "Cache-Control": "no-cache, no-transform",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      });
      // HEAD gets the headers and no stream (a HEAD response has no body to stream into).
      if (req.method === "HEAD") {
        res.end();
        return;
      }
      const client: Client = { res };
      this.clients.add(client);
      req.on("close", () => this.remove(client));
      res.on("close", () => this.remove(client));
      res.write(": connected\n\n");
      if (this.clients.size === 1) this.attach();
    };
  }

  /** Ends every stream and refuses new ones (the engine stops). */
  close(): void {
    this.stopped = true;
    for (const client of [...this.clients]) {
      this.remove(client);
      if (!client.res.writableEnded) client.res.end();
    }
  }

  /** Accepts streams again (the engine started again). */
  resume(): void {
    this.stopped = false;
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    if (this.clients.size === 0) this.release();
  }

  private send(event: string, data: unknown): void {
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of [...this.clients]) this.write(client, text);
  }

  private write(client: Client, text: string): void {
    const { res } = client;
    if (res.writableEnded || res.destroyed) {
      this.remove(client);
      return;
    }
    // A reader that falls this far behind would make the process hold every event for it.
    if (res.writableLength > this.maxBuffered) {
      this.remove(client);
      res.destroy();
      return;
    }
    res.write(text);
  }

  private attach(): void {
    const { state, manager, mqtt, logs, deviceRegistry } = this.sources;
    const onState: StateChangeHandler = (key, newValue) => {
      const deleted = newValue === undefined;
      this.send("state", { key, deleted, ...(deleted ? {} : bounded(newValue)) });
    };
    state.onAnyChange(onState);
    const stopRuns = manager.onRun((run) => {
      this.send("automation.run", {
        name: run.automation,
        outcome: run.error === undefined ? "ok" : "error",
        durationMs: run.durationMs,
      });
    });
    const stopCatalog = manager.onCatalogChange(() => this.send("automations", {}));
    const stopMqtt = mqtt.onConnectionChange((connected) => this.send("mqtt", { connected }));
    const stopLogs = logs.subscribe((entry) => this.log(entry));
    const devices = deviceRegistry ? this.followDevices(deviceRegistry) : null;
    this.syncDevices = devices?.sync ?? null;
    this.health = this.healthSnapshot();
    this.scheduleHeartbeat();
    this.scheduleHealthCheck();
    this.detach = () => {
      state.offAnyChange(onState);
      stopRuns();
      stopCatalog();
      stopMqtt();
      stopLogs();
      devices?.stop();
      this.syncDevices = null;
    };
  }

  private release(): void {
    this.detach?.();
    this.detach = null;
    if (this.heartbeat) this.timer.clearTimeout(this.heartbeat);
    if (this.healthCheck) this.timer.clearTimeout(this.healthCheck);
    this.heartbeat = null;
    this.healthCheck = null;
  }

  private scheduleHeartbeat(): void {
    this.heartbeat = this.timer.setTimeout(() => {
      this.flushSkippedLogs();
      for (const client of [...this.clients]) this.write(client, ": ping\n\n");
      if (this.clients.size > 0) this.scheduleHeartbeat();
    }, this.heartbeatMs);
  }

  private scheduleHealthCheck(): void {
    this.healthCheck = this.timer.setTimeout(() => {
      const current = this.healthSnapshot();
      for (const [key, json] of current) {
        if (this.health.get(key) !== json) this.send("service", { key, health: JSON.parse(json) as unknown });
      }
      for (const key of this.health.keys()) {
        if (!current.has(key)) this.send("service", { key, health: null });
      }
      this.health = current;
      this.syncDevices?.();
      if (this.clients.size > 0) this.scheduleHealthCheck();
    }, this.healthCheckMs);
  }

  private healthSnapshot(): Map<string, string> {
    return new Map(this.sources.servicesHealth().map((health) => [health.key, JSON.stringify(health)]));
  }

  private log(entry: LogEntry): void {
    if (entry.level < LOG_LEVELS.info) return;
    const now = this.now();
    if (now - this.logWindow.startedAt >= 1000) {
      this.flushSkippedLogs();
      this.logWindow = { startedAt: now, sent: 0, skipped: 0 };
    }
    if (this.logWindow.sent >= this.maxLogLines) {
      this.logWindow.skipped += 1;
      return;
    }
    this.logWindow.sent += 1;
    this.send("log", boundedLog(entry));
  }

  /** Says how many lines the per-second bound left out, so a view knows to reload the log. */
  private flushSkippedLogs(): void {
    if (this.logWindow.skipped === 0) return;
    const count = this.logWindow.skipped;
    this.logWindow.skipped = 0;
    this.send("log.skipped", { count });
  }

  /**
   * Device state changes (per device), joins and leaves; `sync` (each health check) also catches
   * list changes the registry does not announce (its first list, a device dropped from it).
   */
  private followDevices(registry: DeviceRegistryApi): { stop: () => void; sync: () => void } {
    const handlers = new Map<string, DeviceStateHandler>();
    const watch = (name: string) => {
      if (handlers.has(name)) return;
      const handler: DeviceStateHandler = () => this.send("device", { friendlyName: name, change: "state" });
      handlers.set(name, handler);
      registry.onDeviceStateChange(name, handler);
    };
    const unwatch = (name: string) => {
      const handler = handlers.get(name);
      if (handler) registry.offDeviceStateChange(name, handler);
      handlers.delete(name);
    };
    const added = (device: ZigbeeDevice) => {
      watch(device.friendly_name);
      this.send("device", { friendlyName: device.friendly_name, change: "added" });
    };
    const removed = (device: ZigbeeDevice) => {
      unwatch(device.friendly_name);
      this.send("device", { friendlyName: device.friendly_name, change: "removed" });
    };
    const sync = () => {
      const names = new Set(registry.getDevices().map((device) => device.friendly_name));
      for (const name of names) {
        if (handlers.has(name)) continue;
        watch(name);
        this.send("device", { friendlyName: name, change: "added" });
      }
      for (const name of [...handlers.keys()]) {
        if (names.has(name)) continue;
        unwatch(name);
        this.send("device", { friendlyName: name, change: "removed" });
      }
    };
    for (const device of registry.getDevices()) watch(device.friendly_name);
    registry.onDeviceAdded(added);
    registry.onDeviceRemoved(removed);
    return {
      sync,
      stop: () => {
        registry.offDeviceAdded(added);
        registry.offDeviceRemoved(removed);
        for (const name of [...handlers.keys()]) unwatch(name);
      },
    };
  }
}

/** `{ value }` when it is small as JSON, else `{ truncated: true }` (the client fetches the key). */
function bounded(value: unknown): { value?: unknown; truncated?: true } {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return { truncated: true };
  }
  if (json === undefined || json.length > MAX_VALUE_CHARS) return { truncated: true };
  return { value };
}

/** The entry as it is when small; else its level, time, automation and the message cut short. */
function boundedLog(entry: LogEntry): Record<string, unknown> {
  let json: string | undefined;
  try {
    json = JSON.stringify(entry);
  } catch {
    json = undefined;
  }
  if (json !== undefined && json.length <= MAX_VALUE_CHARS) return entry;
  return {
    level: entry.level,
    time: entry.time,
    msg: String(entry.msg).slice(0, MAX_MESSAGE_CHARS),
    ...(typeof entry.automation === "string" ? { automation: entry.automation.slice(0, 200) } : {}),
    truncated: true,
  };
}
