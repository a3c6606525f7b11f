/**
 * The `relay` service on Shelly Gen 2+ devices (https://shelly-api-docs.shelly.cloud/gen2/):
 * Switch and Cover components on any channel, over HTTP RPC or MQTT RPC. MQTT-connected
 * devices push their changes (NotifyStatus on `<prefix>/events/rpc`, and `<prefix>/status/<component>`
 * when status notifications are on); they are kept and passed to `onStatusChange` listeners.
 */
import { randomBytes } from "node:crypto";
import type { MqttServiceApi } from "../../../ports/mqtt-bus.js";
import { ServiceCallError } from "../../../domain/automation/service-errors.js";
import type { MqttPayload } from "../../../domain/automation/trigger.js";
import type { HttpClient } from "../../../ports/http-client.js";
import type { Logger } from "../../../ports/logger.js";
import type {
  CoverStatus,
  RelayDeviceInfo,
  RelayService,
  RelayStatusChange,
  RelayStatusListener,
  RelayTransport,
  SwitchStatus,
} from "../../../ports/relay-service.js";
import type { ServiceHealthReport, ServiceHealthReporter } from "../../../ports/service-health.js";
import { systemTimer, type Timer } from "../../../ports/timer.js";
import { describeError, HealthTracker, masked } from "../health-tracker.js";
import { componentKey, coverStatusSchema, mergeCover, mergeSwitch, switchStatusSchema } from "./shelly-status.js";
import { ShellyHttpTransport, ShellyMqttRpc, type ShellyTransport } from "./shelly-transports.js";

/** One device as configured (SHELLY_DEVICES). */
export interface ShellyDeviceConfig {
  transport: RelayTransport;
  /** `http://10.0.0.5` (user:password@ allowed, kept out of logs) or the MQTT topic prefix. */
  address: string;
  /** Declared switch channels; default [0] when no cover is declared either. */
  switches?: number[];
  covers?: number[];
}

export interface ShellyRelayOptions {
  devices: Record<string, ShellyDeviceConfig>;
  /** Digest user for HTTP devices; Shelly's is always `admin`. */
  username?: string;
  /** Digest password for HTTP devices without their own in the URL. */
  password?: string | undefined;
  /** Per-request timeout (HTTP) and answer timeout (MQTT), ms. Default 10000. */
  timeoutMs?: number;
  /** `src` of MQTT RPC requests; `hearth-<random>` by default. */
  clientId?: string;
  timer?: Timer;
  now?: () => Date;
}

interface Device {
  info: RelayDeviceInfo;
  transport: ShellyTransport;
  health: HealthTracker;
  /** MQTT topic prefix, for event subscriptions. */
  prefix: string | null;
}

const MAX_CHANNEL = 15;

/** Splits `http://user:pass@host` into a fetchable URL and its credentials. */
function splitCredentials(address: string): { url: string; username?: string; password?: string } {
  const parsed = new URL(address);
  const username = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  return {
    url: parsed.toString().replace(/\/+$/, ""),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
  };
}

export class ShellyRelayService implements RelayService, ServiceHealthReporter {
  readonly serviceKey = "relay";
  private readonly devicesByName = new Map<string, Device>();
  private readonly switches = new Map<string, SwitchStatus>();
  private readonly covers = new Map<string, CoverStatus>();
  private readonly listeners = new Set<RelayStatusListener>();
  private readonly rpc: ShellyMqttRpc;
  private readonly now: () => Date;
  private readonly subscriptions: [string, (topic: string, payload: MqttPayload) => void][] = [];
  private readonly usesPassword: boolean;

  /** `(http, mqtt, logger)` as the spec's relay-service signature, then the devices. */
  constructor(
    http: HttpClient,
    private readonly mqtt: MqttServiceApi,
    private readonly logger: Logger,
    options: ShellyRelayOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.rpc = new ShellyMqttRpc(
      mqtt,
      options.timer ?? systemTimer,
      options.clientId ?? `hearth-${randomBytes(4).toString("hex")}`,
      timeoutMs,
    );
    let usesPassword = Boolean(options.password);
    for (const [name, config] of Object.entries(options.devices)) {
      const covers = config.covers ?? [];
      const switches = config.switches ?? (covers.length === 0 ? [0] : []);
      if (config.transport === "mqtt") {
        this.devicesByName.set(name, {
          info: { name, transport: "mqtt", address: config.address, switches, covers },
          transport: this.rpc.transportFor(name, config.address),
          health: new HealthTracker(this.now),
          prefix: config.address,
        });
        continue;
      }
      const { url, username, password } = splitCredentials(config.address);
      if (password) usesPassword = true;
      this.devicesByName.set(name, {
        info: { name, transport: "http", address: url, switches, covers },
        transport: new ShellyHttpTransport(http, {
          device: name,
          baseUrl: url,
          username: username ?? options.username ?? "admin",
          password: password ?? options.password,
          timeoutMs,
        }),
        health: new HealthTracker(this.now),
        prefix: null,
      });
    }
    this.usesPassword = usesPassword;
  }

  // ---- lifecycle -----------------------------------------------------------------

  /** Subscribes to the MQTT devices' events and to MQTT RPC answers. */
  onStart(): void {
    const mqttDevices = [...this.devicesByName.values()].filter((device) => device.prefix !== null);
    if (mqttDevices.length === 0) return;
    this.rpc.start();
    for (const device of mqttDevices) {
      const handler = (topic: string, payload: MqttPayload) => this.onDeviceMessage(device, topic, payload);
      for (const topic of [`${device.prefix}/events/rpc`, `${device.prefix}/status/+`]) {
        this.mqtt.subscribe(topic, handler);
        this.subscriptions.push([topic, handler]);
      }
    }
  }

  /** Undoes onStart; calls still waiting for an MQTT answer are rejected. */
  onStop(): void {
    for (const [topic, handler] of this.subscriptions.splice(0)) this.mqtt.unsubscribe(topic, handler);
    this.rpc.stop();
  }

  // ---- devices -------------------------------------------------------------------

  devices(): RelayDeviceInfo[] {
    return [...this.devicesByName.values()].map((device) => structuredClone(device.info));
  }

  hasDevice(name: string): boolean {
    return this.devicesByName.has(name);
  }

  // ---- switches ------------------------------------------------------------------

  switchOn(device: string, channel = 0): Promise<void> {
    return this.setSwitch(device, true, channel);
  }

  switchOff(device: string, channel = 0): Promise<void> {
    return this.setSwitch(device, false, channel);
  }

  async setSwitch(device: string, on: boolean, channel = 0): Promise<void> {
    if (typeof on !== "boolean") throw this.invalid(`on must be true or false (got ${JSON.stringify(on)})`);
    await this.run(device, channel, "Switch.Set", { id: channel, on }, { retry: true });
    this.learnSwitch(device, channel, { output: on, source: "hearth" });
  }

  async toggleSwitch(device: string, channel = 0): Promise<void> {
    // Never retried: a toggle that reached the device but lost its answer would toggle twice.
    const result = (await this.run(device, channel, "Switch.Toggle", { id: channel })) as { was_on?: unknown } | null;
    if (typeof result?.was_on === "boolean")
      this.learnSwitch(device, channel, { output: !result.was_on, source: "hearth" });
  }

  async getSwitchStatus(device: string, channel = 0): Promise<SwitchStatus> {
    const result = await this.run(device, channel, "Switch.GetStatus", { id: channel }, { retry: true });
    const parsed = switchStatusSchema.safeParse(result);
    const status = parsed.success ? this.learnSwitch(device, channel, parsed.data) : null;
    if (!status) throw this.badResponse(device, "Switch.GetStatus");
    return status;
  }

  lastKnownSwitch(device: string, channel = 0): SwitchStatus | null {
    const status = this.switches.get(`${device}:${channel}`);
    return status ? { ...status } : null;
  }

  // ---- covers --------------------------------------------------------------------

  async openCover(device: string, channel = 0): Promise<void> {
    await this.run(device, channel, "Cover.Open", { id: channel });
  }

  async closeCover(device: string, channel = 0): Promise<void> {
    await this.run(device, channel, "Cover.Close", { id: channel });
  }

  async stopCover(device: string, channel = 0): Promise<void> {
    await this.run(device, channel, "Cover.Stop", { id: channel });
  }

  async setCoverPosition(device: string, position: number, channel = 0): Promise<void> {
    if (!Number.isInteger(position) || position < 0 || position > 100) {
      throw this.invalid(`position must be a whole number from 0 (closed) to 100 (open) (got ${position})`);
    }
    await this.run(device, channel, "Cover.GoToPosition", { id: channel, pos: position }, { retry: true });
  }

  async getCoverStatus(device: string, channel = 0): Promise<CoverStatus> {
    const result = await this.run(device, channel, "Cover.GetStatus", { id: channel }, { retry: true });
    const parsed = coverStatusSchema.safeParse(result);
    const status = parsed.success ? this.learnCover(device, channel, parsed.data) : null;
    if (!status) throw this.badResponse(device, "Cover.GetStatus");
    return status;
  }

  lastKnownCover(device: string, channel = 0): CoverStatus | null {
    const status = this.covers.get(`${device}:${channel}`);
    return status ? { ...status } : null;
  }

  onStatusChange(listener: RelayStatusListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // ---- internals -----------------------------------------------------------------

  private async run(
    name: string,
    channel: number,
    method: string,
    params: Record<string, unknown>,
    options: { retry?: boolean } = {},
  ): Promise<unknown> {
    const device = this.devicesByName.get(name);
    if (!device) {
      throw new ServiceCallError(
        "relay",
        "SERVICE_UNKNOWN_DEVICE",
        `No relay device named "${name}" (configured: ${[...this.devicesByName.keys()].join(", ") || "none"}; see SHELLY_DEVICES)`,
      );
    }
    if (!Number.isInteger(channel) || channel < 0 || channel > MAX_CHANNEL) {
      throw this.invalid(`channel must be a whole number from 0 to ${MAX_CHANNEL} (got ${channel})`);
    }
    try {
      const result = await device.transport.call(method, params, options);
      device.health.succeeded();
      this.logger.debug("Shelly RPC done", { device: name, method, channel });
      return result;
    } catch (error) {
      const wrapped =
        error instanceof ServiceCallError
          ? error
          : new ServiceCallError("relay", "SERVICE_UNREACHABLE", `Shelly "${name}": ${describeError(error)}`, {
              cause: error,
            });
      device.health.failed(wrapped.message, wrapped.code !== "SERVICE_UNREACHABLE");
      this.logger.warn("Shelly RPC failed", {
        device: name,
        method,
        channel,
        code: wrapped.code,
        error: wrapped.message,
      });
      throw wrapped;
    }
  }

  private invalid(message: string): ServiceCallError {
    return new ServiceCallError("relay", "SERVICE_INVALID_ARGUMENT", message);
  }

  private badResponse(device: string, method: string): ServiceCallError {
    return new ServiceCallError(
      "relay",
      "SERVICE_BAD_RESPONSE",
      `Shelly "${device}" answered ${method} with an unexpected shape`,
    );
  }

  private learnSwitch(device: string, channel: number, update: Parameters<typeof mergeSwitch>[3]): SwitchStatus | null {
    const key = `${device}:${channel}`;
    const previous = this.switches.get(key) ?? null;
    const status = mergeSwitch(device, channel, previous, update, this.now());
    if (!status) return null;
    this.switches.set(key, status);
    this.emit({ kind: "switch", device, channel, status: { ...status }, previous });
    return { ...status };
  }

  private learnCover(device: string, channel: number, update: Parameters<typeof mergeCover>[3]): CoverStatus | null {
    const key = `${device}:${channel}`;
    const previous = this.covers.get(key) ?? null;
    const status = mergeCover(device, channel, previous, update, this.now());
    if (!status) return null;
    this.covers.set(key, status);
    this.emit({ kind: "cover", device, channel, status: { ...status }, previous });
    return { ...status };
  }

  private emit(change: RelayStatusChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.error("Relay status listener failed", { device: change.device, error: describeError(error) });
      }
    }
  }

  /** NotifyStatus / NotifyFullStatus on `<prefix>/events/rpc`, or one component on `<prefix>/status/<component>`. */
  private onDeviceMessage(device: Device, topic: string, payload: MqttPayload): void {
    device.health.succeeded();
    const name = device.info.name;
    if (topic.endsWith("/events/rpc")) {
      if (payload.method !== "NotifyStatus" && payload.method !== "NotifyFullStatus") return;
      const params = payload.params;
      if (typeof params !== "object" || params === null) return;
      for (const [component, value] of Object.entries(params as Record<string, unknown>))
        this.learnComponent(name, component, value);
      return;
    }
    this.learnComponent(name, topic.slice(topic.lastIndexOf("/") + 1), payload);
  }

  private learnComponent(device: string, component: string, value: unknown): void {
    const key = componentKey(component);
    if (!key) return;
    if (key.kind === "switch") {
      const parsed = switchStatusSchema.safeParse(value);
      if (parsed.success) this.learnSwitch(device, key.channel, parsed.data);
      else this.logger.debug("Ignored a switch status of unexpected shape", { device, component });
      return;
    }
    const parsed = coverStatusSchema.safeParse(value);
    if (parsed.success) this.learnCover(device, key.channel, parsed.data);
    else this.logger.debug("Ignored a cover status of unexpected shape", { device, component });
  }

  serviceHealth(): ServiceHealthReport {
    const devices = [...this.devicesByName.values()];
    const snapshots = devices.map((device) => ({ ...device.info, ...device.health.snapshot() }));
    const failing = snapshots.filter((device) => device.reachable === false);
    const latestError = snapshots
      .filter((device) => device.lastErrorAt !== null)
      .sort((a, b) => String(b.lastErrorAt).localeCompare(String(a.lastErrorAt)))[0];
    const checked = snapshots.filter((device) => device.reachable !== null);
    return {
      provider: "shelly",
      configured: devices.length > 0,
      reachable: checked.length === 0 ? null : failing.length === 0,
      lastError: latestError ? `${latestError.name}: ${latestError.lastError}` : null,
      lastErrorAt: latestError?.lastErrorAt ?? null,
      lastSuccessAt:
        snapshots
          .map((device) => device.lastSuccessAt)
          .filter((at): at is string => at !== null)
          .sort()
          .at(-1) ?? null,
      config: {
        devices: snapshots.map(({ name, transport, address, switches, covers }) => ({
          name,
          transport,
          address,
          switches,
          covers,
        })),
        password: masked(this.usesPassword ? "set" : undefined),
        mqttClientId: this.rpc.src,
      },
      details: {
        devices: snapshots.map(({ name, reachable, lastError, lastSuccessAt }) => ({
          name,
          reachable,
          lastError,
          lastSuccessAt,
        })),
      },
    };
  }
}
