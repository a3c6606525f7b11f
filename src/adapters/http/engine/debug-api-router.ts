import { INVENTORY_EVENT_TYPES } from "../../../domain/inventory/inventory-event.js";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import { z } from "zod";
import { findNonFiniteNumber } from "../../../domain/automation/state-value.js";
import { nonFiniteTriggerInput } from "../../../domain/automation/trigger-input.js";
import { singleQueryValue } from "../query-values.js";
import type { AutomationInfo, AutomationManagerApi } from "../../../ports/automation-catalog.js";
import type { DeviceRegistryApi } from "../../../ports/device-registry.js";
import type { ServiceRegistryApi } from "../../../ports/engine-services.js";
import { HOMEKIT_SERVICE_KEY, isHomeKitBridge } from "../../../ports/homekit-bridge.js";
import type { MqttServiceApi } from "../../../ports/mqtt-bus.js";
import { describeServiceHealth, type ServiceHealth, summariseServiceHealth } from "../../../ports/service-health.js";
import type { StateManagerApi } from "../../../ports/state-store.js";
import type { TriggerContext } from "../../../domain/automation/trigger.js";
import type { ZigbeeDevice } from "../../../domain/automation/zigbee-device.js";
import { LOG_LEVELS, type LogBuffer } from "../../../ports/log-buffer.js";
import type { LeadershipStatus } from "../../../ports/leader-lease.js";
import type { Logger } from "../../../ports/logger.js";
import {
  buildManualTriggerContext,
  type ManualTrigger,
  ManualTriggerFieldMissingError,
} from "../../../application/automation/manual-trigger.js";
import { isAuthenticated } from "./engine-auth.js";
import type { EngineEventStreams } from "./engine-event-streams.js";
import { refuseDeepBodies } from "../body-shape.js";
import { ENGINE_BODY_LIMIT, engineErrorHandler, sendError, zodDetails } from "./engine-errors.js";
import { isReady } from "./engine-http-server.js";
import { refuseOnStandby } from "./standby-guard.js";

export interface DebugApiDeps {
  manager: AutomationManagerApi;
  state: StateManagerApi;
  logs: LogBuffer;
  mqtt: MqttServiceApi;
  deviceRegistry: DeviceRegistryApi | null;
  /** The engine's services, for /api/services and the summary in /api/status; none when omitted. */
  services?: ServiceRegistryApi;
  readiness: () => { mqtt: boolean; engine: boolean };
  /** Hot standby: this instance's role and who leads; "single" when omitted. A standby refuses changes. */
  leadership?: () => LeadershipStatus;
  /** When the engine finished starting; a getter when the router is built before that. */
  startedAt: Date | null | (() => Date | null);
  version: string;
  /** From createEngineAuth: guards every route of this router. */
  auth: RequestHandler;
  /** For unexpected failures; a silent logger when omitted. */
  logger?: Logger;
  /** Current time in ms (uptime); Date.now by default. */
  now?: () => number;
  /** The engine's live events for GET /events; without them that route answers 404. */
  events?: EngineEventStreams;
  /**
   * Waits until the state's changes are kept where the engine keeps them (StateManager.flush:
   * the state file, or the database under hot standby). PUT and DELETE of a state key answer
   * only then, and with an error when it fails; without it they answer at once.
   */
  persistState?: () => Promise<void>;
}

export const MAX_LOG_LIMIT = 1000;

// ---- manual trigger bodies ---------------------------------------------------------

const deviceSchema = z.looseObject({
  friendly_name: z.string().min(1),
  ieee_address: z.string().default(""),
  type: z.string().default("Unknown"),
});

const stringMap = z.record(z.string(), z.string());

const manualTriggerSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("mqtt"), topic: z.string().min(1), payload: z.unknown().optional() }),
  z.object({
    type: z.literal("cron"),
    expression: z.string().min(1).optional(),
    firedAt: z.iso.datetime({ offset: true }).optional(),
  }),
  z.object({
    type: z.literal("state"),
    key: z.string().min(1),
    newValue: z.unknown().optional(),
    oldValue: z.unknown().optional(),
  }),
  z.object({
    type: z.literal("webhook"),
    path: z.string().min(1).optional(),
    method: z.string().min(1).default("POST"),
    headers: stringMap.default({}),
    query: stringMap.default({}),
    body: z.unknown().optional(),
  }),
  z.object({
    type: z.literal("device_state"),
    friendlyName: z.string().min(1).optional(),
    state: z.record(z.string(), z.unknown()).default({}),
    device: deviceSchema.optional(),
  }),
  z.object({
    type: z.literal("device_joined"),
    friendlyName: z.string().min(1).optional(),
    device: deviceSchema.optional(),
  }),
  z.object({
    type: z.literal("device_left"),
    friendlyName: z.string().min(1).optional(),
    device: deviceSchema.optional(),
  }),
  z.object({
    type: z.literal("inventory"),
    event: z
      .object({
        type: z.enum(INVENTORY_EVENT_TYPES).optional(),
        householdId: z.string().min(1).optional(),
        id: z.string().min(1).optional(),
        occurredAt: z.iso.datetime({ offset: true }).optional(),
        data: z.record(z.string(), z.unknown()).optional(),
      })
      .default({}),
  }),
]);

// ---- log query ---------------------------------------------------------------------

const levelSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (/^\d+$/.test(value)) return Number.parseInt(value, 10);
    const named = LOG_LEVELS[value.toLowerCase() as keyof typeof LOG_LEVELS];
    if (named !== undefined) return named;
    ctx.addIssue({ code: "custom", message: `expected a number or one of ${Object.keys(LOG_LEVELS).join(", ")}` });
    return z.NEVER;
  });

/** A parameter given once, as `schema` wants it; given twice it is a 400 naming it, as on the inventory API. */
function once<T extends z.ZodType>(schema: T) {
  return z.unknown().transform(singleQueryValue).pipe(schema);
}

const logQuerySchema = z.object({
  automation: once(z.string().min(1)).optional(),
  level: once(levelSchema).optional(),
  limit: once(
    z
      .string()
      .regex(/^\d+$/, `expected a whole number from 1 to ${MAX_LOG_LIMIT}`)
      .transform((value) => Number.parseInt(value, 10))
      .pipe(z.number().min(1, `expected 1 to ${MAX_LOG_LIMIT}`).max(MAX_LOG_LIMIT, `expected 1 to ${MAX_LOG_LIMIT}`)),
  ).optional(),
});

/** Empty means absent (forms send `level=`); a repeated parameter stays an array for the schema to refuse. */
function givenValues(query: Request["query"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === "string" && value.trim() === "") continue;
    out[name] = value;
  }
  return out;
}

// ---- router ------------------------------------------------------------------------

const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
  child: () => silentLogger,
};

/** JSON has no undefined: absent values are reported as null. */
const orNull = (value: unknown) => (value === undefined ? null : value);

/** Path parameters of `*name` routes arrive as segment arrays (names with slashes). */
function pathParam(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join("/") : (value ?? "");
}

/**
 * The debug API, mounted at `/api` on the engine HTTP server: status, automations and
 * manual triggers, state, the log buffer and Zigbee devices. Every route goes through
 * `deps.auth`.
 */
export function createDebugApiRouter(deps: DebugApiDeps): Router {
  const router = Router();
  const now = deps.now ?? Date.now;
  const logger = deps.logger ?? silentLogger;

  router.use(deps.auth);
  // A standby keeps no state and runs no automations: a change it acknowledged would be lost.
  router.use(refuseOnStandby(deps.leadership, "writes"));
  // Not strict: a bare JSON value (`true`, `5`) reaches the route, which can then say what
  // shape it wants instead of the parser's "Unexpected token".
  router.use(express.json({ limit: ENGINE_BODY_LIMIT, strict: false }));
  // A state value nested thousands deep is taken by JSON.parse but not by JSON.stringify: the
  // state file could never be written again.
  router.use(refuseDeepBodies);

  const servicesHealth = (): ServiceHealth[] =>
    (deps.services?.keys() ?? []).map((key) => describeServiceHealth(key, deps.services?.get(key)));

  router.get("/services", (_req, res) => {
    const services = servicesHealth();
    res.json({ services, count: services.length });
  });

  router.get("/services/:key", (req, res) => {
    const key = pathParam(req.params.key);
    if (!deps.services?.has(key)) {
      sendError(res, 404, `No service registered under "${key}"`);
      return;
    }
    res.json(describeServiceHealth(key, deps.services.get(key)));
  });

  router.get("/homekit", (_req, res) => {
    const bridge = deps.services?.get(HOMEKIT_SERVICE_KEY);
    if (!isHomeKitBridge(bridge)) {
      sendError(res, 404, "No HomeKit bridge is running; set HOMEKIT_ENABLED=true (or pass services.homekit)");
      return;
    }
    // The setup code lets anyone nearby pair while the bridge is unpaired: only to a caller who logged in.
    const authenticated = isAuthenticated(res);
    res.json({
      ...bridge.describe(authenticated),
      ...(authenticated ? {} : { setupCodeHidden: "Log in (HTTP_TOKEN) to see the setup code" }),
    });
  });

  // Pairing needs the panel in pairing mode and a person next to it: a button in the web UI
  // or one curl is easier than an automation. Failures (not in pairing mode: 409) go
  // through the error catalogue.
  router.post("/services/lightPanels/:panel/pair", async (req, res) => {
    const panels = deps.services?.get<{ pair?: (name: string) => Promise<void> }>("lightPanels");
    if (typeof panels?.pair !== "function") {
      sendError(res, 404, "No light-panel service that pairs is registered; set NANOLEAF_PANELS");
      return;
    }
    const panel = pathParam(req.params.panel);
    await panels.pair(panel);
    res.json({ panel, paired: true });
  });

  // Live: what the pages would otherwise poll for, pushed (Server-Sent Events).
  const eventsHandler = deps.events?.handler();
  router.get("/events", (req, res, next) => {
    if (!eventsHandler) {
      sendError(res, 404, "This engine has no event stream");
      return;
    }
    if (Object.keys(req.query).length > 0 || Number(req.headers["content-length"] ?? 0) > 0) {
      sendError(res, 400, "The event stream takes no query and no body");
      return;
    }
    eventsHandler(req, res, next);
  });

  router.get("/status", (_req, res) => {
    const checks = deps.readiness();
    const automations = deps.manager.listAutomations();
    const failed = automations.filter((automation) => automation.status === "failed").length;
    const startedAt = typeof deps.startedAt === "function" ? deps.startedAt() : deps.startedAt;
    res.json({
      // "ok" is the liveness answer of /healthz; this route reports readiness as /readyz decides it.
      status: isReady(checks) ? "ready" : "not_ready",
      checks: { mqtt: checks.mqtt, engine: checks.engine },
      startedAt: startedAt ? startedAt.toISOString() : null,
      uptimeSeconds: startedAt ? Math.max(0, Math.floor((now() - startedAt.getTime()) / 1000)) : 0,
      automations: { registered: automations.length - failed, failed },
      ...leadershipView(deps.leadership?.()),
      services: summariseServiceHealth(servicesHealth()),
      version: deps.version,
    });
  });

  router.get("/automations", (_req, res) => {
    const automations = deps.manager.listAutomations();
    res.json({ automations, count: automations.length });
  });

  const findAutomation = (req: Request, res: Response): AutomationInfo | null => {
    const name = pathParam(req.params.name);
    const info = deps.manager.getAutomation(name);
    if (!info) sendError(res, 404, `No automation named "${name}"`);
    return info;
  };

  router.get("/automations/:name", (req, res) => {
    const info = findAutomation(req, res);
    if (info) res.json(info);
  });

  // Why did it (not) fire: the last runs (newest first) and what the trigger filters turned away.
  router.get("/automations/:name/traces", (req, res) => {
    const info = findAutomation(req, res);
    if (!info) return;
    const traces = deps.manager.getTraces(info.name) ?? { traces: [], rejected: [] };
    res.json({ automation: info.name, status: info.status, ...traces, count: traces.traces.length });
  });

  router.post("/automations/:name/trigger", async (req, res) => {
    const info = findAutomation(req, res);
    if (!info) return;
    if (info.status === "failed") {
      sendError(res, 404, `Automation "${info.name}" is not running: ${info.error ?? "it failed to register"}`);
      return;
    }
    // The schema takes payloads and bodies as they come; JSON.parse made 1e400 Infinity.
    const nonFinite = nonFiniteTriggerInput(req.body);
    if (nonFinite !== null) throw nonFinite;
    const parsed = manualTriggerSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      sendError(res, 400, "Invalid trigger body", zodDetails(parsed.error));
      return;
    }
    let context: TriggerContext;
    try {
      const trigger: ManualTrigger = parsed.data;
      context = buildManualTriggerContext(trigger, info, deps.deviceRegistry, new Date(now()));
    } catch (error) {
      if (!(error instanceof ManualTriggerFieldMissingError)) throw error;
      sendError(res, 400, "Invalid trigger body", [{ path: error.path, message: error.message }]);
      return;
    }
    const result = await deps.manager.runAutomation(info.name, context);
    if (result.status === "not_found") {
      sendError(res, 404, `No automation named "${info.name}"`);
    } else if (result.status === "dropped") {
      sendError(res, 409, `Automation "${info.name}" did not run: ${result.reason}`);
    } else if (result.status === "error") {
      res.status(500).json({ error: result.error, message: result.error });
    } else if (result.status === "refused") {
      // A manual webhook trigger stands for a request: answer what the webhook would have.
      sendError(res, result.refusal.status, result.refusal.message, result.refusal.details);
    } else {
      res.json({ status: "triggered" });
    }
  });

  router.get("/state", (_req, res) => {
    const state = deps.state.entries();
    res.json({ state, count: Object.keys(state).length });
  });

  router.get("/state/:key", (req, res) => {
    const key = pathParam(req.params.key);
    const exists = deps.state.has(key);
    res.json({ key, value: exists ? orNull(deps.state.get(key)) : null, exists });
  });

  /** Whether the change is kept; when saving it failed, says so (503) instead of acknowledging it. */
  const stateKept = async (res: Response): Promise<boolean> => {
    if (!deps.persistState) return true;
    try {
      await deps.persistState();
      return true;
    } catch (error) {
      logger.error("Saving state after a change through the API failed", { err: error });
      sendError(
        res,
        503,
        `The change is made in memory but could not be saved (${error instanceof Error ? error.message : String(error)}); a restart before the next successful save loses it`,
      );
      return false;
    }
  };

  router.put("/state/:key", async (req, res) => {
    const key = pathParam(req.params.key);
    const body = req.body as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body) || !("value" in body)) {
      const got = body === undefined ? "no JSON body" : `${JSON.stringify(body)}`;
      sendError(
        res,
        400,
        `The body must be a JSON object { "value": … } with Content-Type: application/json (got ${got.slice(0, 80)})`,
        [{ path: "value", message: "required" }],
      );
      return;
    }
    const value = (body as { value: unknown }).value;
    // JSON.parse reads 1e400 as Infinity, which the state file would save as null.
    const nonFinite = findNonFiniteNumber(value);
    if (nonFinite !== null) {
      const path = nonFinite.path === "" ? "value" : `value.${nonFinite.path}`;
      sendError(
        res,
        400,
        `The value holds ${String(nonFinite.number)}, which JSON cannot hold (it would be saved as null)`,
        [{ path, message: `is ${String(nonFinite.number)} (a number out of range); JSON cannot hold it` }],
      );
      return;
    }
    const previous = deps.state.get(key);
    deps.state.set(key, value);
    if (await stateKept(res)) res.json({ key, value, previous: orNull(previous) });
  });

  router.delete("/state/:key", async (req, res) => {
    const key = pathParam(req.params.key);
    const deleted = deps.state.delete(key);
    if (await stateKept(res)) res.json({ key, deleted });
  });

  router.get("/logs", (req, res) => {
    const parsed = logQuerySchema.safeParse(givenValues(req.query));
    if (!parsed.success) {
      sendError(res, 400, "Invalid log query", zodDetails(parsed.error));
      return;
    }
    const entries = deps.logs.query(parsed.data);
    res.json({ entries, count: entries.length });
  });

  const describeDevice = (registry: DeviceRegistryApi, device: ZigbeeDevice) => ({
    ...device,
    niceName: registry.getNiceName(device.friendly_name),
    state: registry.getDeviceState(device.friendly_name) ?? {},
  });

  const requireRegistry = (res: Response): DeviceRegistryApi | null => {
    if (!deps.deviceRegistry) {
      sendError(res, 503, "The device registry is disabled; set DEVICE_REGISTRY_ENABLED=true to track Zigbee devices");
    }
    return deps.deviceRegistry;
  };

  router.get("/devices", (_req, res) => {
    const registry = requireRegistry(res);
    if (!registry) return;
    const devices = registry.getDevices().map((device) => describeDevice(registry, device));
    res.json({ devices, count: devices.length });
  });

  // `*friendlyName` so Zigbee2MQTT names with slashes ("garden/lamp") work unencoded.
  router.get("/devices/*friendlyName", (req, res) => {
    const registry = requireRegistry(res);
    if (!registry) return;
    const name = pathParam(req.params.friendlyName);
    const device = registry.getDevice(name);
    if (!device) {
      sendError(res, 404, `No device named "${name}"`);
      return;
    }
    res.json(describeDevice(registry, device));
  });

  router.use(engineErrorHandler(logger));
  return router;
}

/** The role fields of /api/status: role always; instance and leader under a lease. */
function leadershipView(status: LeadershipStatus | undefined): Record<string, unknown> {
  if (!status || status.role === "single") return { role: "single" };
  return { role: status.role, instance: status.instance, leader: status.leader };
}
