/**
 * The engine members an automation sees, wrapped so that what a run does (log lines,
 * publishes, state changes, service calls) lands in that run's trace. Outside a run
 * (onStart, timer callbacks) they behave exactly as the wrapped objects.
 */
import type { LogFields, Logger, LogLevelName } from "../../ports/logger.js";
import type { RunTrace, TraceSettings } from "../../ports/automation-catalog.js";
import type { ServiceRegistryApi } from "../../ports/engine-services.js";
import type { MqttServiceApi } from "../../ports/mqtt-bus.js";
import type { StateManagerApi } from "../../ports/state-store.js";
import { addToTrace, currentTrace, type TraceOwner, truncateForTrace } from "./run-traces.js";

const LEVELS: LogLevelName[] = ["trace", "debug", "info", "warn", "error", "fatal"];

/** `now` is the engine's clock, so log lines of a run line up with its start under the test kit. */
export function tracedLogger(
  logger: Logger,
  automation: TraceOwner,
  settings: TraceSettings,
  now: () => Date = () => new Date(),
): Logger {
  const traced = {
    child: (bindings: LogFields) => tracedLogger(logger.child(bindings), automation, settings, now),
  } as Logger;
  for (const level of LEVELS) {
    traced[level] = ((first: unknown, second?: unknown) => {
      const trace = currentTrace(automation);
      if (trace) addToTrace(trace, "logs", logLine(level, first, second, settings, now()));
      (logger[level] as (a: unknown, b?: unknown) => void)(first, second);
    }) as Logger[typeof level];
  }
  return traced;
}

function logLine(
  level: LogLevelName,
  first: unknown,
  second: unknown,
  settings: TraceSettings,
  at: Date,
): RunTrace["logs"][number] {
  const time = at.toISOString();
  if (typeof first === "string") {
    return second === undefined
      ? { time, level, msg: first }
      : { time, level, msg: first, fields: truncateForTrace(fields(second), settings.payloadBytes) };
  }
  const msg = typeof second === "string" ? second : first instanceof Error ? first.message : "";
  return { time, level, msg, fields: truncateForTrace(fields(first), settings.payloadBytes) };
}

function fields(value: unknown): unknown {
  if (value instanceof Error) return { err: value.message };
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, field]) => [
      key,
      field instanceof Error ? field.message : field,
    ]),
  );
}

/** `onPublish` hears every topic the automation publishes on before the message leaves (a local echo is synchronous). */
export function tracedMqtt(
  mqtt: MqttServiceApi,
  automation: TraceOwner,
  settings: TraceSettings,
  onPublish?: (topic: string) => void,
): MqttServiceApi {
  return {
    get isConnected() {
      return mqtt.isConnected;
    },
    get stats() {
      return mqtt.stats;
    },
    connect: () => mqtt.connect(),
    disconnect: () => mqtt.disconnect(),
    subscribe: (topic, handler) => mqtt.subscribe(topic, handler),
    unsubscribe: (topic, handler) => mqtt.unsubscribe(topic, handler),
    publish(topic, payload, options) {
      const trace = currentTrace(automation);
      if (trace) {
        addToTrace(trace, "published", {
          topic,
          payload: truncateForTrace(payload, settings.payloadBytes),
          ...(options?.retain ? { retain: true } : {}),
        });
      }
      onPublish?.(topic);
      mqtt.publish(topic, payload, options);
    },
    publishToDevice(friendlyName, payload, options) {
      this.publish(`${mqtt.deviceTopic(friendlyName)}/set`, payload, options);
    },
    deviceTopic: (friendlyName) => mqtt.deviceTopic(friendlyName),
    onConnectionChange: (listener) => mqtt.onConnectionChange(listener),
  };
}

export function tracedState(state: StateManagerApi, automation: TraceOwner, settings: TraceSettings): StateManagerApi {
  return {
    get: (key, defaultValue) => state.get(key, defaultValue),
    set(key, value) {
      const trace = currentTrace(automation);
      if (trace) addToTrace(trace, "stateChanges", { key, newValue: truncateForTrace(value, settings.payloadBytes) });
      state.set(key, value);
    },
    delete(key) {
      const deleted = state.delete(key);
      const trace = currentTrace(automation);
      if (trace && deleted) addToTrace(trace, "stateChanges", { key, newValue: null, deleted: true });
      return deleted;
    },
    has: (key) => state.has(key),
    keys: () => state.keys(),
    entries: () => state.entries(),
    onChange: (key, handler) => state.onChange(key, handler),
    offChange: (key, handler) => state.offChange(key, handler),
    onAnyChange: (handler) => state.onAnyChange(handler),
    offAnyChange: (handler) => state.offAnyChange(handler),
    load: () => state.load(),
    save: () => state.save(),
  };
}

/** Services handed out are proxies that record each method call a run makes. */
export function tracedServices(
  services: ServiceRegistryApi,
  automation: TraceOwner,
  settings: TraceSettings,
): ServiceRegistryApi {
  const proxies = new Map<string, { target: unknown; proxy: unknown }>();
  const wrap = <T>(key: string, service: T): T => {
    if (service === null || typeof service !== "object") return service;
    const cached = proxies.get(key);
    if (cached?.target === service) return cached.proxy as T;
    const proxy = new Proxy(service as object, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== "function" || typeof property !== "string") return value;
        return function (this: unknown, ...args: unknown[]) {
          const trace = currentTrace(automation);
          if (trace)
            addToTrace(trace, "serviceCalls", {
              service: key,
              method: property,
              args: truncateForTrace(args, settings.payloadBytes),
            });
          return (value as (...callArgs: unknown[]) => unknown).apply(this === proxy ? target : this, args);
        };
      },
    });
    proxies.set(key, { target: service, proxy });
    return proxy as T;
  };
  return {
    register: (key, service) => services.register(key, service),
    get: <T>(key: string) => wrap(key, services.get<T>(key)),
    getOrThrow: <T>(key: string) => wrap(key, services.getOrThrow<T>(key)),
    use: <T, R>(key: string, fn: (service: T) => R) => services.use<T, R>(key, (service) => fn(wrap(key, service))),
    has: (key) => services.has(key),
    keys: () => services.keys(),
    startAll: (context, scope) => services.startAll(context, scope),
    stopAll: (scope) => services.stopAll(scope),
  };
}
