/**
 * Builds the automation engine from its parts. With the container and main.ts, this is
 * where concrete classes are chosen; callers get an Engine to start() and stop().
 */
import { zigbee2MqttMessages } from "../adapters/zigbee2mqtt/zigbee2mqtt-messages.js";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Router } from "express";
import { EngineHttpServer, redirectRoot } from "../adapters/http/engine/engine-http-server.js";
import { SessionStore } from "../adapters/http/engine/session-store.js";
import { EngineEventStreams } from "../adapters/http/engine/engine-event-streams.js";
import { describeServiceHealth } from "../ports/service-health.js";
import { AutomationWatcher, type WatchDirectory } from "../adapters/loading/automation-watcher.js";
import { AUTOMATION_SOURCE, type AutomationSource } from "../ports/automation-source.js";
import { SCHEDULER } from "../ports/scheduler.js";
// tsyringe needs the Reflect metadata API loaded before it is.
import "reflect-metadata";
import { container, type DependencyContainer } from "tsyringe";
import {
  type BrokerBox,
  EMBEDDED_BROKER,
  ENGINE_CONFIG,
  ENGINE_DOCUMENTS,
  type EngineDocuments,
  type EngineModule,
  overrideEngineAdapters,
  systemEngineModule,
  WATCH_DIRECTORY,
} from "./engine-modules.js";
import { TYPE_CHECKER, type TypeChecker, type TypeDiagnostic } from "../ports/type-checker.js";
import { BufferedLogger } from "../adapters/logging/buffered-logger.js";
import { RingBufferLog } from "../adapters/logging/ring-buffer.js";
import { createLogger } from "../adapters/logging/winston-logger.js";
import type { CronScheduler } from "../adapters/scheduling/cron-scheduler.js";
import { AutomationManager } from "../application/automation/automation-manager.js";
import type { DeviceRegistryApi } from "../ports/device-registry.js";
import type { ServiceRegistryApi } from "../ports/engine-services.js";
import { DeviceRegistry } from "../application/automation/device-registry.js";
import { InventoryEventBus } from "../application/automation/inventory-event-bus.js";
import { MqttService } from "../application/automation/mqtt-service.js";
import {
  type EngineServices,
  resolveServices,
  type ServiceRegistry,
} from "../application/automation/service-registry.js";
import { StateManager, type StateManagerOptions } from "../application/automation/state-manager.js";
import type { NotificationService } from "../domain/automation/notification.js";
import { HTTP_CLIENT, type HttpClient } from "../ports/http-client.js";
import { LOG_BUFFER, type LogBuffer } from "../ports/log-buffer.js";
import { LOGGER, type Logger } from "../ports/logger.js";
import { MQTT_CLIENT, type MqttClient } from "../ports/mqtt-client.js";
import { referencedTimer, systemTimer, TIMER, type Timer, withinTime } from "../ports/timer.js";
import { CLOCK, type Clock } from "../ports/clock.js";
import { type Config, loadConfig } from "./config.js";
import { engineRoutes } from "./engine-routes.js";
import { buildServicesFromConfig } from "./env-services.js";
import { mirrorRelayStatus } from "./relay-state.js";
import { createStatusRouter } from "./status-surfaces.js";
import { HEARTH_VERSION } from "./version.js";
import { logAutomationExceptions, logUnhandledRejections, stopOnSignals, UndoStack } from "./lifecycle.js";
import type { JsonStore } from "../ports/json-store.js";
import {
  CRON_FIRE_LEDGER,
  type CronFireLedger,
  LEADER_LEASE,
  type LeaderLease,
  type LeadershipStatus,
} from "../ports/leader-lease.js";
import { Leadership } from "../application/automation/leadership.js";
import { LeaderScheduler } from "../application/automation/leader-scheduler.js";
import { hostname } from "node:os";

/**
 * Hot standby (createEngine's `leadership`): several processes share a database and only
 * the one holding the lease runs automations, triggers and cron.
 */
export interface EngineLeadershipOptions {
  lease: LeaderLease;
  ledger: CronFireLedger;
  /** This process's name as the others show it. Default: the host name. */
  instance?: string;
  /** Lease lifetime without renewal. Default 3000 ms. */
  ttlMs?: number;
  /** Renewal and takeover attempt period. Default 1000 ms. */
  renewMs?: number;
  /**
   * Where the state and the device registry are kept (instead of files), written only
   * under this process's lease (`fence` gives its token, or null when it does not lead).
   */
  documents?: (name: "state" | "device-registry", fence: () => number | null) => JsonStore;
}

/** Device registry settings of createEngine (override DEVICE_REGISTRY_* variables). */
export interface DeviceRegistryEngineOptions {
  /** Nice names by friendly name or IEEE address. */
  names?: Record<string, string>;
  persist?: boolean;
  filePath?: string;
}

/** A router to mount on the engine HTTP server, or a function building it from the engine. */
export interface EngineRoute {
  path: string;
  router: Router | ((engine: Engine) => Router);
}

/** Options of {@link createEngine}; everything but `automationsDir` has a default. */
export interface EngineOptions {
  /** Directory holding automation files (.ts and .js). */
  automationsDir: string;
  /** Scan subdirectories too. Default AUTOMATIONS_RECURSIVE (false). */
  recursive?: boolean;
  /** Overrides of the configuration read from the environment. */
  config?: Partial<Config>;
  /**
   * Default: the process logger (stdout, text or NDJSON, and the ring buffer). A custom
   * logger receives every entry; without `logBuffer` its entries are also recorded in a
   * new ring buffer, so /api/logs keeps working.
   */
  logger?: Logger;
  /** The ring buffer behind /api/logs, when the given `logger` already feeds one. */
  logBuffer?: LogBuffer;
  /** Default STATE_PERSIST / STATE_FILE_PATH. */
  state?: StateManagerOptions;
  /** Default DEVICE_REGISTRY_PERSIST / DEVICE_REGISTRY_FILE_PATH; enabled by DEVICE_REGISTRY_ENABLED. */
  deviceRegistry?: DeviceRegistryEngineOptions;
  /**
   * Service instances or factories by key (notifications, weather, relay, lightPanels,
   * homekit, custom). A well-known key left out is built from its environment variables
   * (NTFY_*, WEATHER_*, SHELLY_*, NANOLEAF_*) when they are set.
   */
  services?: EngineServices;
  /** Build services the `services` option leaves out from environment variables. Default true. */
  servicesFromEnvironment?: boolean;
  /** HTTP port overriding HTTP_PORT; here 0 means "any free port" (tests), not "disabled". */
  httpPort?: number;
  /** Interface to bind the HTTP server to (default: all). */
  httpHost?: string;
  /**
   * Routers mounted on the engine HTTP server before it starts. Default: the webhook
   * router (/webhook), the debug API (/api) and, with WEB_UI_ENABLED, the web UI
   * (/status), see {@link defaultEngineRoutes}. Passing a list replaces the default, so
   * add `...engineRoutes({ version })` next to your own routes.
   */
  routes?: EngineRoute[];
  /**
   * Run the stop sequence on SIGINT and SIGTERM, then exit the process (code 0, or 1 when
   * stopping failed or took longer than 10 s). A second signal while stopping exits at
   * once. Default true; pass false when the program embedding the engine handles signals
   * itself (Hearth's own `npm start` does, to stop the inventory API too).
   */
  handleSignals?: boolean;
  /**
   * While the engine runs, log a promise rejection nobody caught (under the automation whose
   * file it came from) instead of letting Node end the process. Default: as `handleSignals`,
   * since both are the process owner's choice; Hearth's own `npm start` turns it on.
   */
  catchUnhandledRejections?: boolean;
  /**
   * While the engine runs, log an exception thrown by an automation's raw `setTimeout`,
   * `setInterval` or `setImmediate` callback under the automation instead of letting Node end
   * the process. Any other uncaught exception still ends the process (exit code 1), as Node's
   * default does. Default: as `catchUnhandledRejections`; Hearth's own `npm start` turns it on.
   */
  catchUncaughtExceptions?: boolean;
  /** Hot standby: run automations only while holding the lease. Default: always run them. */
  leadership?: EngineLeadershipOptions;
  /**
   * Reload changed, added and removed automation files without a restart. Default
   * AUTOMATIONS_WATCH (on for `hearth start`, off for the library).
   */
  watch?: boolean;
  /**
   * Type-check the automations in the background at start and after each reload, showing
   * errors as warnings in the log, the debug API and the web UI. `true` uses a worker thread
   * with the TypeScript compiler; a TypeChecker replaces it. Default AUTOMATIONS_TYPECHECK.
   */
  typeCheck?: boolean | TypeChecker;
  /** Test seams. */
  watchDirectory?: WatchDirectory;
  mqttClient?: MqttClient;
  clock?: Clock;
  timer?: Timer;
}

/** A running (or ready to run) automation engine. */
export interface Engine {
  /** Connects MQTT, discovers automations, starts the HTTP server and services. */
  start(): Promise<void>;
  /**
   * onStop of automations, then services; saves state and devices; disconnects; closes
   * HTTP. Also runs on SIGINT and SIGTERM unless `handleSignals: false`.
   */
  stop(): Promise<void>;
  readonly config: Readonly<Config>;
  readonly logger: Logger;
  /** The ring buffer of recent entries behind /api/logs. */
  readonly logBuffer: LogBuffer;
  readonly mqtt: MqttService;
  readonly http: HttpClient;
  readonly state: StateManager;
  readonly notifications: NotificationService | null;
  readonly services: ServiceRegistryApi;
  readonly manager: AutomationManager;
  readonly deviceRegistry: DeviceRegistryApi | null;
  readonly scheduler: CronScheduler;
  /** Where delivered inventory events reach `inventory` triggers (fed when the inventory runs in this process). */
  readonly inventoryEvents: InventoryEventBus;
  /** The HTTP server (mount routes before start), or null when disabled. */
  readonly httpServer: EngineHttpServer | null;
  /** Port the HTTP server listens on, or null (disabled or not started). */
  readonly httpPort: number | null;
  /** MQTT connected and start() finished (what /readyz reports). */
  readonly isReady: boolean;
  /** When start() finished, or null. */
  readonly startedAt: Date | null;
  /** Leader, standby, or single (no lease); see {@link EngineLeadershipOptions}. */
  readonly leadership: LeadershipStatus;
  /** The latest background type check, or null when type checks are off or none ran yet. */
  readonly lastTypeCheck: Promise<TypeDiagnostic[]> | null;
  /** The live event streams of the debug API (`/api/events`, `/api/v1/house/events`); closed by stop(). */
  readonly eventStreams: EngineEventStreams;
}

/** Builds an engine; nothing connects or listens until `start()`. */
export function createEngine(options: EngineOptions): Engine {
  if (!options?.automationsDir) throw new TypeError("createEngine: automationsDir is required");
  const scope = container.createChildContainer();
  registerEngine(scope, options);
  return assembleEngine(scope, options);
}

/**
 * Registers the engine's configuration, logging and adapters (`module`, Hearth's own by
 * default) into `scope`; the options' test seams and lease replace the module's choices.
 */
export function registerEngine(
  scope: DependencyContainer,
  options: EngineOptions,
  module: EngineModule = systemEngineModule,
): void {
  const config: Readonly<Config> = Object.freeze(engineConfig(options.config));
  const { logger, logBuffer } = engineLogging(options, config);
  scope.register(ENGINE_CONFIG, { useValue: config });
  scope.register(LOGGER, { useValue: logger });
  scope.register(LOG_BUFFER, { useValue: logBuffer });
  module(scope);
  const documents = options.leadership?.documents;
  overrideEngineAdapters(scope, {
    ...(options.mqttClient ? { mqttClient: options.mqttClient } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.timer ? { timer: options.timer } : {}),
    ...(options.watchDirectory ? { watchDirectory: options.watchDirectory } : {}),
    ...(documents ? { documents: (name, _file, fence) => documents(name, fence) } : {}),
  });
  if (options.typeCheck && options.typeCheck !== true) scope.register(TYPE_CHECKER, { useValue: options.typeCheck });
  if (options.leadership) {
    scope.register(LEADER_LEASE, { useValue: options.leadership.lease });
    scope.register(CRON_FIRE_LEDGER, { useValue: options.leadership.ledger });
  }
}

/** The engine over the parts registered in `scope` (see {@link registerEngine}). */
export function assembleEngine(scope: DependencyContainer, options: EngineOptions): Engine {
  const config = scope.resolve<Readonly<Config>>(ENGINE_CONFIG);
  const logger = scope.resolve<Logger>(LOGGER);
  const logBuffer = scope.resolve<LogBuffer>(LOG_BUFFER);
  const engineLogger = logger.child({ module: "engine" });
  const clock = scope.resolve<Clock>(CLOCK);
  const timer = scope.resolve<Timer>(TIMER);
  const http = scope.resolve<HttpClient>(HTTP_CLIENT);
  const brokerBox = scope.resolve<BrokerBox>(EMBEDDED_BROKER);
  const mqttClient = scope.resolve<MqttClient>(MQTT_CLIENT);
  const openDocument = scope.resolve<EngineDocuments>(ENGINE_DOCUMENTS);
  const watchDirectory = scope.isRegistered(WATCH_DIRECTORY, true)
    ? scope.resolve<WatchDirectory>(WATCH_DIRECTORY)
    : undefined;
  const mqtt = new MqttService(mqttClient, logger.child({ module: "mqtt" }), {
    zigbeePrefix: config.ZIGBEE2MQTT_PREFIX,
  });

  // The lease token is read through this box: leadership is built after the stores it fences.
  let leadership: Leadership | null = null;
  const fence = () => leadership?.currentToken() ?? null;
  const leading = options.leadership !== undefined;

  const statePersist = leading ? true : (options.state?.persist ?? config.STATE_PERSIST);
  const stateFile = options.state?.filePath ?? config.STATE_FILE_PATH;
  const stateLogger = logger.child({ module: "state" });
  const state = new StateManager(
    { persist: statePersist, filePath: stateFile },
    {
      logger: stateLogger,
      // Under a lease every change is written through at once: a standby may take over any time.
      ...(statePersist ? { store: openDocument("state", stateFile, fence, stateLogger) } : {}),
      ...(leading ? { writeDelayMs: 0 } : {}),
      timer,
    },
  );

  const devicePersist = leading ? true : (options.deviceRegistry?.persist ?? config.DEVICE_REGISTRY_PERSIST);
  const deviceFile = options.deviceRegistry?.filePath ?? config.DEVICE_REGISTRY_FILE_PATH;
  const deviceLogger = logger.child({ module: "device-registry" });
  const deviceRegistry = config.DEVICE_REGISTRY_ENABLED
    ? new DeviceRegistry({
        messages: zigbee2MqttMessages,
        mqtt,
        prefix: config.ZIGBEE2MQTT_PREFIX,
        logger: deviceLogger,
        names: options.deviceRegistry?.names ?? {},
        store: devicePersist ? openDocument("device-registry", deviceFile, fence, deviceLogger) : null,
      })
    : null;

  const fromEnvironment =
    options.servicesFromEnvironment === false ? {} : buildServicesFromConfig(config, options.services, clock);
  const services: ServiceRegistry = resolveServices(
    { ...fromEnvironment, ...options.services },
    { http, mqtt, logger, deviceRegistry },
  );

  const scheduler = scope.resolve<CronScheduler>(SCHEDULER);

  const httpPort = options.httpPort ?? (config.HTTP_PORT === 0 ? null : config.HTTP_PORT);
  const inventoryEvents = new InventoryEventBus(logger.child({ module: "inventory-events" }));
  const manager = new AutomationManager({
    logger,
    mqtt,
    state,
    http,
    config,
    services,
    deviceRegistry,
    scheduler: leading
      ? new LeaderScheduler({
          inner: scheduler,
          ledger: scope.resolve<CronFireLedger>(CRON_FIRE_LEDGER),
          token: fence,
          logger: logger.child({ module: "cron" }),
          clock,
        })
      : scheduler,
    source: scope.resolve<AutomationSource>(AUTOMATION_SOURCE),
    clock,
    timer,
    httpEnabled: httpPort !== null,
    inventoryEvents,
    traces: { runs: config.AUTOMATION_TRACE_RUNS, payloadBytes: config.AUTOMATION_TRACE_PAYLOAD_BYTES },
    ...(leading ? { acting: () => fence() !== null } : {}),
  });

  const typeCheckOption = options.typeCheck ?? config.AUTOMATIONS_TYPECHECK;
  let typeChecker: TypeChecker | null = null;
  let lastTypeCheck: Promise<TypeDiagnostic[]> | null = null;
  /** Checks not yet settled: one the checker answered may still be writing its kept result to DATA_DIR. */
  const typeChecksInFlight = new Set<Promise<TypeDiagnostic[]>>();
  const typeLogger = logger.child({ module: "type-check" });
  /** Never awaited by start() or a reload: warnings arrive when the check is done. */
  const checkTypes = () => {
    if (typeCheckOption === false) return;
    const files = manager.files().filter((file) => /\.m?ts$/.test(file));
    if (files.length === 0) return;
    typeChecker ??= scope.resolve<TypeChecker>(TYPE_CHECKER);
    const check = typeChecker.check(files).then(
      (diagnostics) => {
        manager.setTypeWarnings(files, diagnostics);
        for (const diagnostic of diagnostics) {
          typeLogger.warn(`Type error: ${diagnostic.message}`, {
            file: diagnostic.file,
            line: diagnostic.line,
            column: diagnostic.column,
            code: diagnostic.code,
          });
        }
        return diagnostics;
      },
      (error: unknown) => {
        typeLogger.warn("Type check could not run", { err: error });
        return [];
      },
    );
    lastTypeCheck = check;
    typeChecksInFlight.add(check);
    void check.then(() => typeChecksInFlight.delete(check));
  };
  let watcher: AutomationWatcher | null = null;

  let startedAt: Date | null = null;
  let boundPort: number | null = null;
  let phase: "idle" | "starting" | "started" | "stopping" = "idle";
  const single: LeadershipStatus = {
    role: "single",
    instance: options.leadership?.instance ?? hostname(),
    leader: null,
  };
  const readiness = () => ({
    mqtt: mqtt.isConnected,
    engine: startedAt !== null,
    startedAt: startedAt?.toISOString() ?? null,
    role: (leadership ?? single).role,
    leader: (leadership ?? single).leader,
  });
  const eventStreams = new EngineEventStreams(
    {
      state,
      manager,
      mqtt,
      logs: logBuffer,
      deviceRegistry,
      servicesHealth: () => services.keys().map((key) => describeServiceHealth(key, services.get(key))),
    },
    { timer, now: () => clock.now().getTime() },
  );
  const httpServer =
    httpPort === null ? null : new EngineHttpServer({ logger: logger.child({ module: "http" }), readiness });

  /** Undo steps of a start in progress, run in reverse when a later step fails. */
  const undo = new UndoStack();

  let releaseSignals = () => {};
  let releaseRejections = () => {};
  let releaseExceptions = () => {};
  let stopRelayMirror = () => {};
  const holdSignals = () => {
    if (options.handleSignals === false) return;
    releaseSignals = stopOnSignals(() => engine.stop(), { logger: engineLogger });
  };

  const automationsDir = path.resolve(options.automationsDir);
  const recursive = options.recursive ?? config.AUTOMATIONS_RECURSIVE;
  /** Loads the automations and, with AUTOMATIONS_WATCH, follows their files. */
  const startAutomations = async () => {
    if (!existsSync(automationsDir)) {
      // A fresh install may not have written any automation yet; the rest of the engine still serves.
      engineLogger.warn(`Automations directory ${automationsDir} does not exist; no automations loaded`, {
        hint: "create it or set AUTOMATIONS_DIR",
      });
      return;
    }
    await manager.discoverAndRegister(automationsDir, recursive);
    if (options.watch ?? config.AUTOMATIONS_WATCH) {
      watcher = new AutomationWatcher({
        dir: automationsDir,
        recursive,
        logger: logger.child({ module: "automation-watcher" }),
        timer,
        ...(watchDirectory ? { watch: watchDirectory } : {}),
        onChange: async (changes) => {
          for (const change of changes) {
            if (change.exists) await manager.loadFile(change.file);
            else await manager.removeFile(change.file);
          }
          checkTypes();
        },
      });
      watcher.start();
    }
  };
  const stopWatching = async () => {
    await watcher?.stop();
    watcher = null;
  };
  /** What only the leader runs: the latest state and devices, then automations and their triggers. */
  const promote = async () => {
    await state.load();
    if (deviceRegistry) {
      await deviceRegistry.load();
      await deviceRegistry.start();
    }
    await startAutomations();
    // What must exist once on the network (the HomeKit bridge) moves with the lease.
    await services.startAll({ http, logger }, "leader-only");
    checkTypes();
  };
  /** Cron first (synchronous, so no tick starts after this), then automations, then devices. */
  const demote = async () => {
    scheduler.stopAll();
    await stopWatching();
    await manager.stopAll();
    scheduler.stopAll();
    await services.stopAll("leader-only");
    await state.flush();
    if (deviceRegistry) await deviceRegistry.stop();
  };
  if (options.leadership) {
    leadership = new Leadership({
      lease: scope.resolve<LeaderLease>(LEADER_LEASE),
      instance: options.leadership.instance ?? hostname(),
      ttlMs: options.leadership.ttlMs ?? 3000,
      renewMs: options.leadership.renewMs ?? 1000,
      logger: logger.child({ module: "leadership" }),
      onPromote: promote,
      onDemote: demote,
      onRenewed: () => manager.leaseConfirmed(),
      timer,
      // The lease is measured on the clock its timers run on. Node's timers follow the
      // monotonic clock; the wall clock steps (NTP setting a Raspberry Pi's clock after boot,
      // or correcting it backwards), and a step back must not stretch a lease this process
      // can no longer renew.
      now: timer === systemTimer ? () => performance.now() : () => clock.now().getTime(),
    });
  }

  const engine: Engine = {
    config,
    logger,
    logBuffer,
    mqtt,
    http,
    state,
    get notifications() {
      return services.get<NotificationService>("notifications");
    },
    services,
    manager,
    deviceRegistry,
    scheduler,
    inventoryEvents,
    httpServer,
    get httpPort() {
      return boundPort;
    },
    get isReady() {
      return mqtt.isConnected && startedAt !== null;
    },
    get startedAt() {
      return startedAt;
    },
    get leadership() {
      return leadership ?? single;
    },
    get lastTypeCheck() {
      return lastTypeCheck;
    },
    eventStreams,

    async start() {
      if (phase !== "idle") throw new Error(`Engine cannot start while ${phase}`);
      phase = "starting";
      eventStreams.resume();
      try {
        if (statePersist && !leadership) await state.load();
        undo.push("state", () => (statePersist && !leadership ? state.save() : undefined));

        // Never fails on an unreachable broker: the client keeps retrying and /readyz says 503.
        undo.push("embedded broker", () => brokerBox.broker?.close());
        await mqtt.connect();
        undo.push("mqtt", () => mqtt.disconnect());

        if (deviceRegistry && !leadership) {
          await deviceRegistry.start();
          undo.push("device registry", () => deviceRegistry.stop());
        }

        // Before the automations load: their onStart can already leave a rejection behind.
        if (options.catchUnhandledRejections ?? options.handleSignals !== false) {
          releaseRejections = logUnhandledRejections(engineLogger, (error) => manager.reportStrayError(error) !== null);
          undo.push("unhandled-rejection handler", () => releaseRejections());
        }
        if (options.catchUncaughtExceptions ?? options.catchUnhandledRejections ?? options.handleSignals !== false) {
          releaseExceptions = logAutomationExceptions(
            engineLogger,
            (error) => manager.reportUncaughtException(error) !== null,
          );
          undo.push("uncaught-exception handler", () => releaseExceptions());
        }
        undo.push("automations", () => manager.stopAll());
        undo.push("scheduler", () => scheduler.stopAll());
        undo.push("type checker", () => typeChecker?.close?.());
        undo.push("automation watcher", () => stopWatching());
        // With a lease, automations start when this process becomes leader (below).
        if (!leadership) await startAutomations();

        if (httpServer) {
          // WIRING POINT: webhooks, the debug API and the web UI by default; Hearth's own
          // process passes options.routes and mounts /status and /metrics itself (status-surfaces.ts).
          for (const route of options.routes ?? defaultEngineRoutes(config)) {
            httpServer.mount(
              route.path,
              typeof route.router === "function" && !isRouter(route.router)
                ? route.router(engine)
                : (route.router as Router),
            );
          }
          services.mountRoutes(httpServer.app);
          boundPort = await httpServer.start(httpPort as number, options.httpHost);
          undo.push("http", () => httpServer.close());
        }

        // Under a lease, leader-only services (the HomeKit bridge) start when this instance leads.
        await services.startAll({ http, logger }, leadership ? "every-instance" : "all");
        undo.push("services", () => services.stopAll());
        stopRelayMirror = mirrorRelayStatus(services.get("relay"), state);
        if (leadership) {
          undo.push("leadership", () => leadership?.stop());
          await leadership.start();
        }

        // Only once everything else is up: the check competes for the CPU, never for start-up.
        // (A leader checks when it takes over.)
        if (!leadership) checkTypes();
        startedAt = clock.now();
        phase = "started";
        holdSignals();
        engineLogger.info("Engine started", {
          automations: manager.runningCount,
          failed: manager.failedCount,
          mqtt: mqtt.isConnected ? "connected" : "connecting",
          httpPort: boundPort,
        });
      } catch (error) {
        engineLogger.error("Engine start failed; rolling back", { err: error });
        await undo.unwind(engineLogger);
        boundPort = null;
        phase = "idle";
        throw error;
      }
    },

    async stop() {
      if (phase !== "started") return;
      phase = "stopping";
      httpServer?.refuseChanges();
      // Open streams would hold the HTTP servers' close() until its grace period ends.
      eventStreams.close();
      releaseSignals();
      undo.clear();
      const step = async (label: string, run: () => Promise<unknown> | unknown) => {
        try {
          await run();
        } catch (error) {
          engineLogger.error(`Stop step failed: ${label}`, { err: error });
        }
      };
      startedAt = null;
      // With a lease, stopping leadership stops the automations and saves under the lease, then releases it.
      if (leadership) await step("leadership", () => leadership?.stop());
      await step("automation watcher", () => stopWatching());
      await step("automations onStop", () => manager.stopAll());
      // Aborted runs may still be finishing (a webhook whose caller waits for its answer): what
      // they write to the state must be in the save below, or an acknowledged change is lost.
      await step("running automations", () => settleRuns(manager, engineLogger));
      await step("type checker", async () => {
        await typeChecker?.close?.();
        // Closing fails the checks still waiting on the compiler; one already answered finishes
        // keeping its result, which must not land in DATA_DIR after stop() has returned.
        await Promise.all(typeChecksInFlight);
      });
      typeChecker = null;
      scheduler.stopAll();
      stopRelayMirror();
      await step("services onStop", () => services.stopAll());
      if (statePersist && !leadership) await step("save state", () => state.save());
      if (deviceRegistry && !leadership) await step("device registry", () => deviceRegistry.stop());
      await step("mqtt disconnect", () => mqtt.disconnect());
      await step("http server", () => httpServer?.close());
      await step("embedded broker", () => brokerBox.broker?.close());
      brokerBox.broker = null;
      boundPort = null;
      // Last: onStop and the runs still settling above can leave a rejection behind too.
      releaseRejections();
      releaseExceptions();
      phase = "idle";
      engineLogger.info("Engine stopped");
    },
  };
  return engine;
}

/** How long stop() waits for runs still in flight before it saves the state without them. */
export const RUN_SETTLE_MS = 5000;

async function settleRuns(manager: AutomationManager, logger: Logger): Promise<void> {
  if (!manager.busy) return;
  const outcome = await withinTime(
    manager.idle().then(() => "settled" as const),
    RUN_SETTLE_MS,
    () => "expired" as const,
    referencedTimer,
  );
  if (outcome === "expired") {
    logger.warn(`Automation runs still going ${RUN_SETTLE_MS} ms after stop began; saving the state without them`);
  }
}

/**
 * The environment, parsed once, under the caller's `config`: a variable the caller sets is
 * not read from the environment at all, so an invalid value there (LOG_LEVEL=verbose from
 * the embedding program's own setup, say) cannot stop an engine that was told what to use.
 */
function engineConfig(overrides: Partial<Config> | undefined): Config {
  const given = overrides ?? {};
  const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(name in given)));
  return { ...loadConfig(environment, { inventory: false, surface: "library" }), ...given };
}

/**
 * What the engine HTTP server serves when createEngine gets no `routes`: webhooks, the
 * debug API and, with WEB_UI_ENABLED, the web UI at /status. The web UI and the debug API
 * share one session store, so the debug API accepts the cookie the web UI's login sets.
 */
export function defaultEngineRoutes(config: Pick<Config, "WEB_UI_ENABLED">): EngineRoute[] {
  const sessions = new SessionStore();
  const routes = engineRoutes({ version: HEARTH_VERSION, sessions });
  if (!config.WEB_UI_ENABLED) return routes;
  return [
    ...routes,
    { path: "/", router: redirectRoot("/status") },
    { path: "/status", router: (engine: Engine) => createStatusRouter(engine, sessions) },
  ];
}

/**
 * The engine's logger and the ring buffer behind /api/logs: the process logger (stdout
 * and buffer) by default; a custom logger as given with its buffer, or, given alone,
 * wrapped so its entries are recorded in a new buffer too.
 */
function engineLogging(options: EngineOptions, config: Readonly<Config>): { logger: Logger; logBuffer: LogBuffer } {
  if (!options.logger) {
    const created = createLogger({ level: config.LOG_LEVEL, json: config.NODE_ENV === "production" });
    return { logger: created.logger, logBuffer: options.logBuffer ?? created.buffer };
  }
  if (options.logBuffer) return { logger: options.logger, logBuffer: options.logBuffer };
  const buffer = new RingBufferLog();
  return { logger: new BufferedLogger(options.logger, buffer, config.LOG_LEVEL), logBuffer: buffer };
}

/** Express routers are functions too; they carry `use`/`handle`, builder functions do not. */
function isRouter(candidate: unknown): candidate is Router {
  return typeof candidate === "function" && typeof (candidate as { use?: unknown }).use === "function";
}
