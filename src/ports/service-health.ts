/**
 * How a service reports its health to `/api/services`, `/api/status` and the web UI
 * overview. A service that implements {@link ServiceHealthReporter} is shown with what it
 * reports; any other registered service is shown as configured with reachability unknown.
 */

/** One service's health, as `/api/services` answers it. */
export interface ServiceHealth {
  /** Registry key (`notifications`, `weather`, `relay`, `lightPanels`, `homekit`, custom). */
  key: string;
  /** What implements it: `ntfy`, `open-meteo`, `openweathermap`, `shelly`, `nanoleaf`, `homekit`, `custom`. */
  provider: string;
  /** True when it has what it needs to work (a topic, a location, at least one device). */
  configured: boolean;
  /** Whether the last call reached it: true, false, or null before the first call. */
  reachable: boolean | null;
  /** The last failure's message (secrets masked), or null. */
  lastError: string | null;
  /** ISO-8601 time of that failure, or null. */
  lastErrorAt: string | null;
  /** ISO-8601 time of the last successful call, or null. */
  lastSuccessAt: string | null;
  /** The service's settings with every secret replaced by `***`. */
  config: Record<string, unknown>;
  /** Per-device or per-bridge detail (relay devices, panels, bridge ports), when there is any. */
  details?: Record<string, unknown>;
}

/** The part of a health report a service computes itself; the registry key is added by the caller. */
export type ServiceHealthReport = Omit<ServiceHealth, "key">;

/** Implemented by services that can say how they are. Must not throw or do I/O. */
export interface ServiceHealthReporter {
  serviceHealth(): ServiceHealthReport;
}

/** Whether `service` reports its own health. */
export function reportsHealth(service: unknown): service is ServiceHealthReporter {
  return (
    typeof service === "object" &&
    service !== null &&
    typeof (service as { serviceHealth?: unknown }).serviceHealth === "function"
  );
}

/** The report for `service` under `key`: its own, or "configured, reachability unknown". */
export function describeServiceHealth(key: string, service: unknown): ServiceHealth {
  if (reportsHealth(service)) {
    try {
      return { ...service.serviceHealth(), key };
    } catch (error) {
      return {
        key,
        provider: "custom",
        configured: true,
        reachable: null,
        lastError: `serviceHealth() threw: ${error instanceof Error ? error.message : String(error)}`,
        lastErrorAt: null,
        lastSuccessAt: null,
        config: {},
      };
    }
  }
  return {
    key,
    provider: "custom",
    configured: true,
    reachable: null,
    lastError: null,
    lastErrorAt: null,
    lastSuccessAt: null,
    config: {},
  };
}

/** Counts for `/api/status`: how many services are registered, reachable, failing, unchecked. */
export interface ServicesSummary {
  registered: number;
  reachable: number;
  unreachable: number;
  unknown: number;
}

export function summariseServiceHealth(health: ServiceHealth[]): ServicesSummary {
  return {
    registered: health.length,
    reachable: health.filter((entry) => entry.reachable === true).length,
    unreachable: health.filter((entry) => entry.reachable === false).length,
    unknown: health.filter((entry) => entry.reachable === null).length,
  };
}
