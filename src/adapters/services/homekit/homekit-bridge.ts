import { systemTimer, withinTime } from "../../../ports/timer.js";
/**
 * The HomeKit bridge service (key `homekit`): publishes the Zigbee2MQTT devices the device
 * registry knows (and the relays) as HomeKit accessories through hap-nodejs, on one or more
 * bridges (HAP over IP, TCP port 47128 and up by default).
 *
 * Follows the HomeKit Accessory Protocol specification (non-commercial version, R2) through
 * hap-nodejs (https://github.com/homebridge/HAP-NodeJS, docs at
 * https://developers.homebridge.io/HAP-NodeJS/).
 */
import { createServer, type Server } from "node:net";
import path from "node:path";
import type { Accessory, Bridge, Categories, MDNSAdvertiser } from "hap-nodejs";
import type { DeviceEventHandler, DeviceRegistryApi, DeviceStateHandler } from "../../../ports/device-registry.js";
import type { ServicePlugin } from "../../../ports/engine-services.js";
import type { MqttHandler, MqttServiceApi } from "../../../ports/mqtt-bus.js";
import type { DeviceState, ZigbeeDevice } from "../../../domain/automation/zigbee-device.js";
import type { HomeKitBridgeApi, HomeKitReport } from "../../../ports/homekit-bridge.js";
import type { Logger } from "../../../ports/logger.js";
import type { CoverStatus, RelayService, SwitchStatus } from "../../../ports/relay-service.js";
import type { ServiceHealthReport, ServiceHealthReporter } from "../../../ports/service-health.js";
import { BridgeAllocation, MAX_BRIDGED_ACCESSORIES } from "./bridge-allocation.js";
import type { BridgedAccessory } from "./bridged-accessory.js";
import { type AccessoryPlan, planAccessory } from "./exposes-mapping.js";
import type * as HapRuntime from "./hap-runtime.js";
import { HOMEKIT_DEFAULT_PORT, type HomeKitAdvertiser } from "./homekit-defaults.js";
import { HomeKitIdentity, maskSetupCode, normalizeSetupCode } from "./homekit-identity.js";
import { closeAll, listenAddresses, listenAlso, listenOn } from "./homekit-listen.js";
import type { RelayChannelPlan, RelayCommand } from "./relay-bindings.js";
import type { ZigbeeCommand } from "./zigbee-bindings.js";

/** How long stop() waits for the mDNS goodbye before it lets go: an absent network must not hold up shutdown. */
const UNPUBLISH_TIMEOUT_MS = 3000;

export interface HomeKitBridgeOptions {
  mqtt: MqttServiceApi;
  logger: Logger;
  /** Zigbee2MQTT devices to bridge; null bridges none. */
  deviceRegistry: DeviceRegistryApi | null;
  /** Relay switches and covers to bridge; null or omitted bridges none. */
  relay?: RelayService | null | undefined;
  /** Directory for the identity and the pairings (`<DATA_DIR>/homekit`). */
  dataDir: string;
  /** TCP port of the first bridge (default 47128); 0 gives every bridge a free port (tests). */
  port?: number | undefined;
  /** `XXX-XX-XXX`; generated once and stored in `dataDir` when absent. */
  setupCode?: string | undefined;
  /** Name shown in the Home app (default "Hearth"); later bridges get " 2", " 3", ... */
  bridgeName?: string | undefined;
  /** Interface names or addresses the HAP server and mDNS use (hap-nodejs `bind`); all by default. */
  bind?: string | string[] | undefined;
  /** mDNS advertiser (default "ciao"). */
  advertiser?: HomeKitAdvertiser | undefined;
  /** Bridged accessories per bridge, 1..149 (default 149: HomeKit's limit of 150 minus the bridge). */
  maxAccessoriesPerBridge?: number | undefined;
  /** Zigbee2MQTT base topic, to follow its device list (default "zigbee2mqtt"). */
  zigbeePrefix?: string | undefined;
  /** Runs a device-list reconciliation after the registry has taken the message in (default setImmediate). */
  defer?: ((task: () => void) => void) | undefined;
}

/** Bridges and accessories, without secrets. */
export type HomeKitStatus = Omit<HomeKitReport, "setupCode">;

/** HomeKit's category of a bridge (HAP specification, "Accessory Categories"). */
const BRIDGE_CATEGORY = 2 as Categories;

interface BridgeSlot {
  index: number;
  bridge: Bridge;
  port: number | null;
  published: boolean;
  /** Listeners on the second and later HOMEKIT_BIND addresses, handing connections to the HAP server. */
  extraListeners: Server[];
}

/** One bridged accessory and how to let go of what feeds it. */
interface Entry {
  source: "zigbee" | "relay";
  id: string;
  name: string;
  /** For Zigbee devices: changes when the device's HomeKit shape does. */
  signature: string;
  bridged: { accessory: Accessory; rename(name: string): void };
  /** Removes the state listener. */
  detach(): void;
}

type RelayStateOf = SwitchStatus | CoverStatus;

/** Raised by start() when a bridge's port is taken. */
export class HomeKitPortInUseError extends Error {
  readonly code = "HOMEKIT_PORT_IN_USE";

  constructor(readonly port: number) {
    super(
      `HomeKit bridge port ${port} is in use; set HOMEKIT_PORT to a free port (bridges use it and the ports after it)`,
    );
    this.name = "HomeKitPortInUseError";
  }
}

/**
 * The HomeKit bridge service. Register it under `homekit`; the engine calls `onStart` after
 * the device registry is following Zigbee2MQTT and `onStop` before MQTT disconnects.
 *
 * @example
 * ```ts
 * createEngine({
 *   automationsDir: "./automations",
 *   services: {
 *     homekit: (context) => new HomeKitBridge({ ...context, dataDir: "./data/homekit", setupCode: "482-91-375" }),
 *   },
 * });
 * ```
 */
export class HomeKitBridge implements ServicePlugin, ServiceHealthReporter, HomeKitBridgeApi {
  readonly serviceKey = "homekit";
  /** Two bridges with one identity on the network confuse every controller: one instance runs it. */
  readonly leaderOnly = true;

  private readonly logger: Logger;
  private readonly basePort: number;
  private readonly bridgeName: string;
  private readonly capacity: number;
  private readonly prefix: string;
  private readonly defer: (task: () => void) => void;
  private readonly setupCode: string | undefined;

  /** hap-nodejs and the parts built on it, loaded at the first start. */
  private hap: typeof HapRuntime | null = null;
  private identity: HomeKitIdentity | null = null;
  private allocation: BridgeAllocation | null = null;
  private readonly bridges: BridgeSlot[] = [];
  private readonly entries = new Map<string, Entry>();
  private running = false;
  private lastError: string | null = null;
  private lastErrorAt: string | null = null;
  private startedAt: string | null = null;
  /** Reconciliations run one at a time: one may publish a new bridge (async). */
  private reconciling: Promise<void> = Promise.resolve();
  private reconcileQueued = false;
  private relayUnsubscribe: (() => void) | null = null;
  private readonly qrCodes = new Map<string, string>();

  private readonly onDevicesChanged: DeviceEventHandler = () => this.scheduleReconcile();
  private readonly onDeviceList: MqttHandler = () => this.scheduleReconcile();

  constructor(private readonly options: HomeKitBridgeOptions) {
    this.logger = options.logger;
    this.basePort = options.port ?? HOMEKIT_DEFAULT_PORT;
    this.bridgeName = options.bridgeName ?? "Hearth";
    this.capacity = options.maxAccessoriesPerBridge ?? MAX_BRIDGED_ACCESSORIES;
    this.prefix = (options.zigbeePrefix ?? "zigbee2mqtt").replace(/\/+$/, "");
    this.defer = options.defer ?? ((task) => setImmediate(task));
    // Fail at construction, not at start: a bad capacity or code is a configuration error.
    new BridgeAllocation(this.capacity);
    if (options.setupCode !== undefined) {
      const checked = normalizeSetupCode(options.setupCode);
      if (!checked.ok) throw new RangeError(`HomeKit setup code: ${checked.message}`);
      this.setupCode = checked.code;
    }
  }

  // ---- lifecycle ---------------------------------------------------------------------

  async onStart(): Promise<void> {
    if (this.running) return;
    try {
      this.hap ??= await import("./hap-runtime.js");
      const { identity, problem } = await HomeKitIdentity.load(this.options.dataDir, this.setupCode);
      if (problem) this.logger.warn(problem);
      this.identity = identity;
      this.allocation = new BridgeAllocation(this.capacity, identity.assignments);
      this.running = true;
      // Bridge 0 always exists, so an empty home can still be paired before devices join.
      await this.ensureBridge(0);
      await this.addRelayAccessories();
      await this.reconcileNow();
      const registry = this.options.deviceRegistry;
      if (registry) {
        registry.onDeviceAdded(this.onDevicesChanged);
        registry.onDeviceRemoved(this.onDevicesChanged);
        // The first device list after start announces no joins: follow the list itself too.
        this.options.mqtt.subscribe(`${this.prefix}/bridge/devices`, this.onDeviceList);
      }
      this.lastError = null;
      this.startedAt = new Date().toISOString();
      this.logger.info("HomeKit bridge started", {
        bridges: this.bridges.map((slot) => ({ name: this.nameOf(slot.index), port: slot.port })),
        accessories: this.entries.size,
        setupCode: maskSetupCode(identity.setupCode),
        setupCodeSource: identity.setupCodeConfigured
          ? "HOMEKIT_SETUP_CODE"
          : path.join(this.options.dataDir, "identity.json"),
      });
    } catch (error) {
      this.recordError(error);
      await this.onStop();
      throw error;
    }
  }

  async onStop(): Promise<void> {
    const registry = this.options.deviceRegistry;
    if (registry) {
      registry.offDeviceAdded(this.onDevicesChanged);
      registry.offDeviceRemoved(this.onDevicesChanged);
      this.options.mqtt.unsubscribe(`${this.prefix}/bridge/devices`, this.onDeviceList);
    }
    this.running = false;
    await this.reconciling;
    this.relayUnsubscribe?.();
    this.relayUnsubscribe = null;
    for (const entry of this.entries.values()) entry.detach();
    this.entries.clear();
    await Promise.all(this.bridges.map((slot) => this.unpublish(slot)));
    const stopped = this.bridges.length;
    this.bridges.length = 0;
    this.qrCodes.clear();
    await this.saveAssignments();
    if (stopped > 0) this.logger.info("HomeKit bridge stopped", { bridges: stopped });
  }

  // ---- what the API and the web UI report ---------------------------------------------

  /**
   * Bridges, ports and accessory counts. `includeSecrets` adds the setup code and the
   * setup URIs; give it only to an authenticated caller.
   */
  describe(includeSecrets: boolean): HomeKitReport {
    const counts = this.allocation?.countsPerBridge() ?? [];
    const bridges = this.bridges.map((slot) => {
      const setupUri = includeSecrets && slot.published ? slot.bridge.setupURI() : null;
      return {
        index: slot.index,
        name: this.nameOf(slot.index),
        username: this.identity?.usernameFor(slot.index) ?? "",
        port: slot.published ? slot.port : null,
        accessories: counts[slot.index] ?? 0,
        paired: slot.bridge._accessoryInfo?.paired() ?? false,
        setupUri,
        setupQr: setupUri === null ? null : this.setupQr(setupUri),
      };
    });
    return {
      configured: true,
      reachable: this.running && bridges.length > 0 && bridges.every((bridge) => bridge.port !== null),
      lastError: this.lastError,
      bridges,
      accessories: this.entries.size,
      setupCode: includeSecrets && this.identity ? this.identity.setupCode : null,
    };
  }

  /** The web UI asks every few seconds; a bridge's setup URI only changes with its pairing state. */
  private setupQr(setupUri: string): string | null {
    if (!this.hap) return null;
    let qr = this.qrCodes.get(setupUri);
    if (qr === undefined) {
      qr = this.hap.setupQrDataUri(setupUri);
      this.qrCodes.set(setupUri, qr);
    }
    return qr;
  }

  /** Configured, reachable and the last error, without secrets. */
  status(): HomeKitStatus {
    const { setupCode: _secret, ...status } = this.describe(false);
    return status;
  }

  /** For /api/services and the web UI overview: never the setup code. */
  serviceHealth(): ServiceHealthReport {
    const status = this.status();
    return {
      provider: "homekit",
      configured: true,
      // Not running after a failed start is "unreachable"; before any start it is unknown.
      reachable: this.running ? status.reachable : this.lastError ? false : null,
      lastError: status.lastError,
      lastErrorAt: this.lastErrorAt,
      lastSuccessAt: this.startedAt,
      config: {
        port: this.basePort,
        bridgeName: this.bridgeName,
        advertiser: this.options.advertiser ?? "ciao",
        maxAccessoriesPerBridge: this.capacity,
        setupCode: "***",
      },
      details: {
        accessories: status.accessories,
        bridges: status.bridges.map(({ setupUri: _uri, setupQr: _qr, ...bridge }) => bridge),
      },
    };
  }

  private recordError(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
    this.lastErrorAt = new Date().toISOString();
  }

  // ---- bridges -----------------------------------------------------------------------

  private nameOf(index: number): string {
    return index === 0 ? this.bridgeName : `${this.bridgeName} ${index + 1}`;
  }

  private portOf(index: number): number {
    return this.basePort === 0 ? 0 : this.basePort + index;
  }

  /** Creates and publishes bridges up to `index`. */
  private async ensureBridge(index: number): Promise<BridgeSlot> {
    while (this.bridges.length <= index) {
      const slotIndex = this.bridges.length;
      const identity = this.identity!;
      const username = identity.usernameFor(slotIndex);
      const hap = this.hap!;
      const bridge = new hap.Bridge(this.nameOf(slotIndex), hap.accessoryUuid(`bridge:${username}`));
      bridge.on("characteristic-warning", (warning) =>
        this.logger.debug("HomeKit characteristic warning", { warning: warning.message }),
      );
      bridge.on("paired", () => this.logger.info("HomeKit bridge paired", { bridge: this.nameOf(slotIndex) }));
      bridge.on("unpaired", () => this.logger.info("HomeKit bridge unpaired", { bridge: this.nameOf(slotIndex) }));
      const slot: BridgeSlot = { index: slotIndex, bridge, port: null, published: false, extraListeners: [] };
      this.bridges.push(slot);
      await identity.save();
      await this.publish(slot, username);
    }
    return this.bridges[index]!;
  }

  private async publish(slot: BridgeSlot, username: string): Promise<void> {
    const port = this.portOf(slot.index);
    // hap-nodejs's bind only narrows the mDNS advertisement; the addresses decide where it listens.
    const addresses = listenAddresses(this.options.bind);
    if (port !== 0) for (const address of addresses ?? [undefined]) await assertPortFree(port, address);
    if (addresses?.[0] !== undefined) listenOn(slot.bridge, addresses[0]);
    this.hap!.registerHapStorage(username, this.options.dataDir);
    const listening = new Promise<number>((resolve) => slot.bridge.once("listening", (bound) => resolve(bound)));
    await slot.bridge.publish({
      username,
      pincode: this.identity!.setupCode,
      port,
      category: BRIDGE_CATEGORY,
      advertiser: (this.options.advertiser ?? "ciao") as MDNSAdvertiser,
      // Identifying material would change the name the user sees on every new username.
      addIdentifyingMaterial: false,
      ...(this.options.bind !== undefined ? { bind: this.options.bind } : {}),
    });
    // hap-nodejs leaves its TCP server without an error listener; a port taken since the probe
    // above would otherwise end the process instead of this start.
    const server = (slot.bridge._server as unknown as { httpServer?: { tcpServer?: Server } } | undefined)?.httpServer
      ?.tcpServer;
    const failed = new Promise<never>((_resolve, reject) => {
      server?.once("error", (error: NodeJS.ErrnoException) =>
        reject(error.code === "EADDRINUSE" || error.code === "EACCES" ? new HomeKitPortInUseError(port) : error),
      );
    });
    slot.port = await Promise.race([listening, failed]);
    slot.published = true;
    if (server && addresses && addresses.length > 1) {
      slot.extraListeners = await listenAlso(server, addresses.slice(1), slot.port);
    }
  }

  private async unpublish(slot: BridgeSlot): Promise<void> {
    if (!slot.published) return;
    slot.published = false;
    await closeAll(slot.extraListeners);
    slot.extraListeners = [];
    try {
      await withinTime(
        slot.bridge.unpublish(),
        UNPUBLISH_TIMEOUT_MS,
        () => {
          this.logger.warn("HomeKit bridge did not finish its mDNS goodbye in time; stopping anyway", {
            bridge: this.nameOf(slot.index),
          });
        },
        systemTimer,
      );
    } catch (error) {
      this.logger.warn("HomeKit bridge did not stop cleanly", { bridge: this.nameOf(slot.index), err: error });
    }
  }

  // ---- accessories -------------------------------------------------------------------

  /** Coalesces bursts (a device list and a join at once) into one reconciliation. */
  private scheduleReconcile(): void {
    if (!this.running || this.reconcileQueued) return;
    this.reconcileQueued = true;
    this.defer(() => {
      this.reconcileQueued = false;
      if (!this.running) return;
      this.reconciling = this.reconciling
        .then(() => this.reconcileNow())
        .catch((error: unknown) => {
          this.recordError(error);
          this.logger.error("HomeKit bridge could not update its accessories", { err: error });
        });
    });
  }

  /** Makes the bridged accessories match the registry's devices: adds, removes, rebuilds, renames. */
  private async reconcileNow(): Promise<void> {
    const registry = this.options.deviceRegistry;
    if (!registry || !this.running) return;
    const wanted = new Map<string, { plan: AccessoryPlan; device: ZigbeeDevice }>();
    for (const device of registry.getDevices()) {
      const plan = planAccessory(device, registry.getNiceName(device.friendly_name));
      if (plan) wanted.set(plan.id, { plan, device });
    }
    let changed = false;
    for (const [id, entry] of [...this.entries]) {
      if (entry.source !== "zigbee") continue;
      const next = wanted.get(id);
      if (next && next.plan.signature === entry.signature) {
        if (next.plan.name !== entry.name) {
          entry.bridged.rename(next.plan.name);
          entry.name = next.plan.name;
          this.logger.info("HomeKit accessory renamed", { id, name: next.plan.name });
        }
        continue;
      }
      this.removeAccessory(entry);
      changed = true;
    }
    for (const { plan, device } of wanted.values()) {
      if (this.entries.has(plan.id)) continue;
      await this.addAccessory(plan, device);
      changed = true;
    }
    if (changed) await this.saveAssignments();
  }

  private async addAccessory(plan: AccessoryPlan, device: ZigbeeDevice): Promise<void> {
    const registry = this.options.deviceRegistry!;
    const ieee = plan.id;
    const hap = this.hap!;
    const bridged = new hap.BridgedAccessory<DeviceState, ZigbeeCommand>({
      id: ieee,
      name: plan.name,
      manufacturer: plan.manufacturer,
      model: plan.model,
      services: hap.zigbeeServiceBindings(plan),
      logger: this.logger,
      send: (command) => {
        // Looked up at write time: the device may have been renamed since it was bridged.
        const current = registry.getDevice(ieee);
        if (!current) throw new Error(`Zigbee device ${ieee} is no longer known`);
        this.options.mqtt.publishToDevice(current.friendly_name, command);
        this.logger.debug("HomeKit write", { device: current.friendly_name, command });
      },
    });
    const state = registry.getDeviceState(device.friendly_name);
    if (state) bridged.update(state);
    // Registered under today's name; the registry moves it along when the device is renamed.
    const handlerName = device.friendly_name;
    const handler: DeviceStateHandler = (next) => bridged.update(next);
    registry.onDeviceStateChange(handlerName, handler);
    const bridgeIndex = await this.bridgeAccessory({
      source: "zigbee",
      id: ieee,
      name: plan.name,
      signature: plan.signature,
      bridged,
      detach: () => registry.offDeviceStateChange(handlerName, handler),
    });
    this.logger.info("HomeKit accessory added", {
      device: device.friendly_name,
      services: plan.services.map((service) => service.kind),
      bridge: this.nameOf(bridgeIndex),
    });
  }

  /** The relays' channels; fixed by configuration, so bridged once at start. */
  private async addRelayAccessories(): Promise<void> {
    const relay = this.options.relay;
    if (!relay) return;
    const hap = this.hap!;
    const plans = hap.planRelayChannels(relay.devices());
    const byChannel = new Map<
      string,
      { plan: RelayChannelPlan; bridged: BridgedAccessory<RelayStateOf, RelayCommand> }
    >();
    for (const plan of plans) {
      const bridged = new hap.BridgedAccessory<RelayStateOf, RelayCommand>({
        id: plan.id,
        name: plan.name,
        manufacturer: "Shelly",
        model: plan.kind === "cover" ? "Cover" : "Switch",
        services: [hap.relayServiceBinding(plan)],
        logger: this.logger,
        send: (command) => hap.sendRelayCommand(relay, plan, command),
      });
      const known = hap.lastKnownRelayState(relay, plan);
      if (known) bridged.update(known);
      byChannel.set(`${plan.kind}:${plan.device}:${plan.channel}`, { plan, bridged });
      await this.bridgeAccessory({
        source: "relay",
        id: plan.id,
        name: plan.name,
        signature: plan.id,
        bridged,
        detach: () => {},
      });
      // HTTP-connected devices tell nothing until asked: ask once, without holding up the start.
      if (!known) {
        hap
          .fetchRelayState(relay, plan)
          .then((state) => bridged.update(state))
          .catch((error: unknown) =>
            this.logger.debug("Relay state not available yet for HomeKit", {
              relay: plan.device,
              channel: plan.channel,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
      }
    }
    if (byChannel.size === 0) return;
    const unsubscribe = relay.onStatusChange((change) => {
      byChannel.get(`${change.kind}:${change.device}:${change.channel}`)?.bridged.update(change.status);
    });
    this.relayUnsubscribe = unsubscribe;
    this.logger.info("HomeKit bridges the relays", { channels: plans.length });
  }

  /** Puts an accessory on its bridge (publishing a new bridge when all are full). */
  private async bridgeAccessory(entry: Entry): Promise<number> {
    const bridgeIndex = this.allocation!.assign(entry.id);
    const slot = await this.ensureBridge(bridgeIndex);
    slot.bridge.addBridgedAccessory(entry.bridged.accessory);
    this.entries.set(entry.id, entry);
    return bridgeIndex;
  }

  private removeAccessory(entry: Entry): void {
    entry.detach();
    const bridgeIndex = this.allocation!.bridgeFor(entry.id);
    const slot = bridgeIndex === undefined ? undefined : this.bridges[bridgeIndex];
    slot?.bridge.removeBridgedAccessory(entry.bridged.accessory);
    this.allocation!.release(entry.id);
    this.entries.delete(entry.id);
    this.logger.info("HomeKit accessory removed", { id: entry.id, name: entry.name });
  }

  private async saveAssignments(): Promise<void> {
    if (!this.identity || !this.allocation) return;
    try {
      await this.identity.saveAssignments(this.allocation.assignments());
    } catch (error) {
      this.logger.warn("Could not save the HomeKit bridge assignments", { err: error });
    }
  }
}

/** Fails with a clear error when `port` is taken (hap-nodejs would raise it as an uncaught exception). */
function assertPortFree(port: number, address?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" || error.code === "EACCES" ? new HomeKitPortInUseError(port) : error);
    });
    probe.listen(port, address, () => probe.close(() => resolve()));
  });
}
