import type { NextFunction, Request, RequestHandler, Response } from "express";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AutomationManagerApi } from "../../../ports/automation-catalog.js";
import type { MqttServiceApi } from "../../../ports/mqtt-bus.js";
import type { Logger } from "../../../ports/logger.js";
import { trackRouteTemplate } from "./route-template.js";

/** Row counts behind the inventory gauges; the composition root runs them as COUNT queries. */
export interface InventoryCounts {
  households: number;
  users: number;
  activeItems: number;
}

export interface MetricsDeps {
  /** The engine's MQTT connection; omit when the engine does not run. */
  mqtt?: Pick<MqttServiceApi, "isConnected" | "stats" | "onConnectionChange"> | null;
  /** Automation runs are counted from `onRun`; series for every automation exist from the start. */
  manager?: Pick<AutomationManagerApi, "onRun" | "listAutomations"> | null;
  /** Called at most once per scrape; a failure keeps the previous values and is logged. */
  inventoryCounts?: (() => Promise<InventoryCounts>) | null;
  logger: Logger;
  /** Process and Node.js metrics (default true; tests may turn them off). */
  defaultMetrics?: boolean;
}

/** The HTTP surfaces whose requests are timed. */
export type HttpSurface = "inventory" | "engine";

export interface Metrics {
  readonly registry: Registry;
  /** Express middleware timing every request of `surface` by route template. Install it before the routers. */
  httpMiddleware(surface: HttpSurface): RequestHandler;
  /** Prometheus text exposition of every metric. */
  scrape(): Promise<string>;
  readonly contentType: string;
  /** Detaches from the engine and clears the registry. */
  stop(): void;
}

const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Builds Hearth's Prometheus registry: process and Node.js metrics, MQTT traffic and
 * connection, per-automation runs, errors and durations, HTTP request durations of both
 * surfaces, and inventory gauges. Values owned by other components are read at scrape
 * time through collect callbacks, so nothing here runs on a timer.
 */
export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  const logger = deps.logger.child({ module: "metrics" });
  const detach: (() => void)[] = [];
  if (deps.defaultMetrics !== false) collectDefaultMetrics({ register: registry });

  const mqtt = deps.mqtt ?? null;
  /** Counters mirroring a running total the MQTT service keeps: each scrape sets them to that total. */
  const mirroredCounter = (name: string, help: string, total: (stats: MqttServiceApi["stats"]) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        if (!mqtt) return;
        this.reset();
        this.inc(total(mqtt.stats));
      },
    });
  mirroredCounter("hearth_mqtt_messages_received_total", "MQTT messages received from the broker", (s) => s.received);
  mirroredCounter("hearth_mqtt_messages_published_total", "MQTT messages published by the engine", (s) => s.published);
  mirroredCounter(
    "hearth_mqtt_reconnects_total",
    "Times the MQTT connection was re-established after a loss",
    (s) => s.reconnects,
  );
  const transitions = new Counter({
    name: "hearth_mqtt_connection_changes_total",
    help: "MQTT connection state changes seen, by new state",
    labelNames: ["state"],
    registers: [registry],
  });
  new Gauge({
    name: "hearth_mqtt_connected",
    help: "1 while the engine is connected to the MQTT broker, else 0",
    registers: [registry],
    collect() {
      this.set(mqtt?.isConnected ? 1 : 0);
    },
  });
  if (mqtt) {
    detach.push(
      mqtt.onConnectionChange((connected) => transitions.inc({ state: connected ? "connected" : "disconnected" })),
    );
  }

  const manager = deps.manager ?? null;
  const runs = new Counter({
    name: "hearth_automation_runs_total",
    help: "Automation executions, by automation",
    labelNames: ["automation"],
    registers: [registry],
    collect() {
      // Zero series for every registered automation, so rate() works before the first run.
      for (const automation of manager?.listAutomations() ?? []) this.inc({ automation: automation.name }, 0);
    },
  });
  const errors = new Counter({
    name: "hearth_automation_errors_total",
    help: "Automation executions that threw or rejected, by automation",
    labelNames: ["automation"],
    registers: [registry],
    collect() {
      for (const automation of manager?.listAutomations() ?? []) this.inc({ automation: automation.name }, 0);
    },
  });
  const durations = new Histogram({
    name: "hearth_automation_duration_seconds",
    help: "Duration of automation executions, by automation",
    labelNames: ["automation"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  if (manager) {
    detach.push(
      manager.onRun((event) => {
        const labels = { automation: event.automation };
        runs.inc(labels);
        if (event.error !== undefined) errors.inc(labels);
        durations.observe(labels, event.durationMs / 1000);
      }),
    );
  }

  const httpDurations = new Histogram({
    name: "hearth_http_request_duration_seconds",
    help: "HTTP request durations, by surface, method, route template and status",
    labelNames: ["surface", "method", "route", "status"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  const inventoryCounts = deps.inventoryCounts ?? null;
  let pendingCounts: Promise<InventoryCounts | null> | null = null;
  /** All three gauges collect concurrently during one scrape; they share one round of queries. */
  const countsOnce = (): Promise<InventoryCounts | null> => {
    if (!inventoryCounts) return Promise.resolve(null);
    pendingCounts ??= inventoryCounts()
      .catch((error: unknown) => {
        logger.warn("Inventory counts for metrics failed", {
          err: error instanceof Error ? error.message : String(error),
        });
        return null;
      })
      .finally(() => {
        pendingCounts = null;
      });
    return pendingCounts;
  };
  const inventoryGauge = (name: string, help: string, pick: (counts: InventoryCounts) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const counts = await countsOnce();
        if (counts) this.set(pick(counts));
      },
    });
  if (inventoryCounts) {
    inventoryGauge("hearth_inventory_households", "Households in the inventory", (counts) => counts.households);
    inventoryGauge("hearth_inventory_users", "Users that are not deleted", (counts) => counts.users);
    inventoryGauge(
      "hearth_inventory_active_items",
      "Freezer items that are not archived",
      (counts) => counts.activeItems,
    );
  }

  return {
    registry,
    contentType: registry.contentType,
    httpMiddleware(surface: HttpSurface): RequestHandler {
      return (req: Request, res: Response, next: NextFunction) => {
        const start = process.hrtime.bigint();
        const route = trackRouteTemplate(req);
        res.once("finish", () => {
          const seconds = Number(process.hrtime.bigint() - start) / 1e9;
          httpDurations.observe(
            { surface, method: req.method, route: route(), status: String(res.statusCode) },
            seconds,
          );
        });
        next();
      };
    },
    scrape: () => registry.metrics(),
    stop() {
      for (const undo of detach.splice(0).reverse()) undo();
      registry.clear();
    },
  };
}
