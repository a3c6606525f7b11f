/**
 * Where the automation engine's adapters are chosen, as registration modules of the one
 * container (the inventory's are in inventory-modules.ts). createEngine, Hearth's own
 * container and the test kit register a module and resolve the engine's parts from it;
 * an option given to createEngine (a client, a clock, a lease) is a registration that
 * replaces the module's choice.
 */
// tsyringe needs the Reflect metadata API loaded before it is.
import path from "node:path";
import "reflect-metadata";
import { instanceCachingFactory, type DependencyContainer } from "tsyringe";
import { FetchHttpClient } from "../adapters/http-client/fetch-http-client.js";
import type { WatchDirectory } from "../adapters/loading/automation-watcher.js";
import { FileAutomationSource } from "../adapters/loading/file-automation-source.js";
import { resolveBroker } from "../adapters/mqtt/broker-selection.js";
import type { EmbeddedBroker } from "../adapters/mqtt/embedded-broker.js";
import { MqttJsClient } from "../adapters/mqtt/mqttjs-client.js";
import { CronScheduler } from "../adapters/scheduling/cron-scheduler.js";
import { JsonFileStore } from "../adapters/state/json-file-store.js";
import { MemoryJsonStore } from "../adapters/state/memory-json-store.js";
import { FakeClock } from "../adapters/testing/fake-clock.js";
import { FakeHttpClient } from "../adapters/testing/fake-http-client.js";
import { LoopbackMqttClient } from "../adapters/testing/loopback-mqtt-client.js";
import { keepsFiles } from "../ports/data-dir.js";
import { NativeTypeChecker, nativeCompilerPath } from "../adapters/typecheck/native-type-checker.js";
import { TYPE_CHECK_FILE, WorkerTypeChecker } from "../adapters/typecheck/worker-type-checker.js";
import { AUTOMATION_SOURCE } from "../ports/automation-source.js";
import { CLOCK, type Clock, systemClock } from "../ports/clock.js";
import { HTTP_CLIENT } from "../ports/http-client.js";
import type { JsonStore } from "../ports/json-store.js";
import { LOGGER, type Logger } from "../ports/logger.js";
import { MQTT_CLIENT } from "../ports/mqtt-client.js";
import { SCHEDULER } from "../ports/scheduler.js";
import { systemTimer, TIMER, type Timer } from "../ports/timer.js";
import { TYPE_CHECKER } from "../ports/type-checker.js";
import type { Config } from "./config.js";

/** The engine's configuration (environment parsed once, under the caller's overrides). */
export const ENGINE_CONFIG = Symbol("EngineConfig");
/** {@link EngineDocuments}: where the state and the device registry are kept. */
export const ENGINE_DOCUMENTS = Symbol("EngineDocuments");
/** {@link BrokerBox}: the embedded broker that broker selection started, if any. */
export const EMBEDDED_BROKER = Symbol("EmbeddedBroker");
/** A WatchDirectory replacing fs.watch for the automation watcher (tests). */
export const WATCH_DIRECTORY = Symbol("WatchDirectory");

/**
 * Opens the store of one engine document. `file` is its configured path; `fence` gives the
 * lease token a hot-standby store writes under (null when this process does not lead).
 */
export type EngineDocuments = (
  name: "state" | "device-registry",
  file: string,
  fence: () => number | null,
  logger: Logger,
) => JsonStore;

/** Filled when the MQTT client's first connect starts the embedded broker; the engine closes it on stop. */
export interface BrokerBox {
  broker: EmbeddedBroker | null;
}

/** Registers one family of engine adapters into a container. */
export type EngineModule = (scope: DependencyContainer) => void;

const config = (resolver: DependencyContainer) => resolver.resolve<Readonly<Config>>(ENGINE_CONFIG);
const logger = (resolver: DependencyContainer, module: string) => resolver.resolve<Logger>(LOGGER).child({ module });

/** Cron on the container's clock and timers, in the time zone `timeZone` gives. */
function registerScheduler(
  scope: DependencyContainer,
  timeZone: (resolver: DependencyContainer) => string | undefined,
): void {
  scope.register(SCHEDULER, {
    useFactory: instanceCachingFactory(
      (resolver) =>
        new CronScheduler({
          timeZone: timeZone(resolver),
          logger: logger(resolver, "cron"),
          clock: resolver.resolve<Clock>(CLOCK),
          timer: resolver.resolve<Timer>(TIMER),
        }),
    ),
  });
}

/**
 * What Hearth runs with: mqtt.js to the configured broker (or the embedded one when none is
 * reachable), fetch, the system clock and timers, automation files from disk, the TypeScript
 * compiler in a worker for type checks, and the state and device registry in JSON files.
 */
export const systemEngineModule: EngineModule = (scope) => {
  const box: BrokerBox = { broker: null };
  scope.register(EMBEDDED_BROKER, { useValue: box });
  scope.register(CLOCK, { useValue: systemClock });
  scope.register(TIMER, { useValue: systemTimer });
  scope.register(HTTP_CLIENT, {
    useFactory: instanceCachingFactory((resolver) => new FetchHttpClient(logger(resolver, "http-client"))),
  });
  scope.register(MQTT_CLIENT, {
    useFactory: instanceCachingFactory((resolver) => {
      const settings = config(resolver);
      const mqttLogger = logger(resolver, "mqtt");
      return new MqttJsClient(
        {
          url: async () => {
            const choice = await resolveBroker(settings, mqttLogger);
            box.broker = choice.embedded;
            return choice.url;
          },
          username: settings.MQTT_USERNAME,
          password: settings.MQTT_PASSWORD,
          maxMessageBytes: settings.MQTT_MAX_MESSAGE_BYTES,
        },
        mqttLogger,
      );
    }),
  });
  registerScheduler(scope, (resolver) => config(resolver).TZ);
  scope.register(AUTOMATION_SOURCE, { useFactory: instanceCachingFactory(() => new FileAutomationSource()) });
  // A new one per resolve (the engine keeps it until stop closes it): a process that never
  // type-checks never starts the worker, and a restarted engine does not get a closed one.
  // A service (state kept in DATA_DIR) keeps its last check there too: a restart with nothing
  // changed does not start the compiler's process, the largest part of a start's memory.
  scope.register(TYPE_CHECKER, {
    useFactory: (resolver) => {
      const settings = config(resolver);
      const keptIn =
        settings.STATE_PERSIST && keepsFiles(settings.DATA_DIR)
          ? path.join(settings.DATA_DIR, TYPE_CHECK_FILE)
          : undefined;
      // The native compiler where npm installed it for this platform: a tenth of the time and
      // half the memory. The JavaScript compiler's worker checks projects whose tsconfig uses
      // options TypeScript 7 removed, and everything on platforms without a native build.
      const compiler = nativeCompilerPath();
      return compiler
        ? new NativeTypeChecker({ compiler, ...(keptIn ? { keptIn } : {}), fallback: new WorkerTypeChecker() })
        : new WorkerTypeChecker(keptIn ? { keptIn } : {});
    },
  });
  scope.register(ENGINE_DOCUMENTS, {
    useValue: ((_name, file, _fence, storeLogger) => new JsonFileStore(file, storeLogger)) satisfies EngineDocuments,
  });
};

/**
 * The test kit's family: an MQTT bus with the broker inside the process, a clock (and its
 * timers) that moves only when told, an HTTP client that never reaches the network, and the
 * state and devices in memory. The clock starts at `now`; cron reads `timeZone`.
 */
export function testKitEngineModule(options: { now?: Date | string | number; timeZone: string }): EngineModule {
  return (scope) => {
    const clock = new FakeClock(options.now);
    scope.register(EMBEDDED_BROKER, { useValue: { broker: null } satisfies BrokerBox });
    scope.register(CLOCK, { useValue: clock });
    scope.register(TIMER, { useValue: clock });
    scope.register(HTTP_CLIENT, { useValue: new FakeHttpClient() });
    scope.register(MQTT_CLIENT, { useValue: new LoopbackMqttClient() });
    registerScheduler(scope, () => options.timeZone);
    scope.register(AUTOMATION_SOURCE, { useFactory: instanceCachingFactory(() => new FileAutomationSource()) });
    // Documents in memory, one per name, for as long as the container lives.
    const documents = new Map<string, JsonStore>();
    scope.register(ENGINE_DOCUMENTS, {
      useValue: ((name) => {
        const store = documents.get(name) ?? new MemoryJsonStore();
        documents.set(name, store);
        return store;
      }) satisfies EngineDocuments,
    });
  };
}

/** The test seams of {@link createEngine}'s options, as registrations over a module's choices. */
export interface EngineAdapterOverrides {
  mqttClient?: unknown;
  clock?: Clock;
  timer?: Timer;
  watchDirectory?: WatchDirectory;
  documents?: EngineDocuments;
}

export function overrideEngineAdapters(scope: DependencyContainer, overrides: EngineAdapterOverrides): void {
  if (overrides.mqttClient) scope.register(MQTT_CLIENT, { useValue: overrides.mqttClient });
  if (overrides.clock) scope.register(CLOCK, { useValue: overrides.clock });
  if (overrides.timer) scope.register(TIMER, { useValue: overrides.timer });
  if (overrides.watchDirectory) scope.register(WATCH_DIRECTORY, { useValue: overrides.watchDirectory });
  if (overrides.documents) scope.register(ENGINE_DOCUMENTS, { useValue: overrides.documents });
}
