/**
 * A stand-in engine for the web UI tests while the real one is not available: an express
 * server implementing the debug API bodies of issue 4 over in-memory fakes, plus the web UI.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import { SESSION_COOKIE, SessionStore } from "../../../src/adapters/http/engine/session-store.js";
import { readCookie } from "../../../src/adapters/http/engine/engine-auth.js";
import { createWebUiRouter } from "../../../src/adapters/http/engine/web-ui/web-ui-router.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { RingBufferLog } from "../../../src/adapters/logging/ring-buffer.js";
import type { AutomationInfo } from "../../../src/ports/automation-catalog.js";
import type { EngineHarness } from "./harness.js";
import { builtWebApp } from "./web-build.js";

interface FakeAutomation {
  info: AutomationInfo;
  execute: (context: Record<string, unknown>) => void;
}

export async function startFakeEngine(token: string): Promise<EngineHarness> {
  const sessions = new SessionStore();
  const logs = new RingBufferLog();
  let mqttConnected = true;
  const startedAt = new Date();
  const state = new Map<string, unknown>();
  const log = (level: number, msg: string, fields: Record<string, unknown> = {}) =>
    logs.push({ level, time: Date.now(), msg, ...fields });

  const automations = new Map<string, FakeAutomation>();
  const add = (info: Omit<AutomationInfo, "stats">, execute: FakeAutomation["execute"]) =>
    automations.set(info.name, {
      info: { ...info, stats: { runs: 0, errors: 0, lastRunAt: null, lastError: null, lastDurationMs: null } },
      execute,
    });
  const run = (name: string, context: Record<string, unknown>): string | null => {
    const automation = automations.get(name)!;
    const stats = automation.info.stats;
    stats.runs++;
    stats.lastRunAt = new Date().toISOString();
    stats.lastDurationMs = 1.2;
    try {
      automation.execute(context);
      log(30, "Automation ran", { automation: name, trigger: context.type });
      return null;
    } catch (error) {
      stats.errors++;
      stats.lastError = (error as Error).message;
      log(50, "Automation failed", { automation: name, err: (error as Error).message });
      return (error as Error).message;
    }
  };
  const setState = (key: string, value: unknown) => {
    const previous = state.get(key);
    state.set(key, value);
    if (JSON.stringify(previous) !== JSON.stringify(value)) {
      for (const automation of automations.values()) {
        if (automation.info.triggers.some((trigger) => trigger.type === "state" && trigger.key === key)) {
          run(automation.info.name, { type: "state", key, newValue: value, oldValue: previous });
        }
      }
    }
    return previous;
  };

  add(
    {
      name: "porch-light",
      file: "automations/porch-light.ts",
      status: "running",
      triggers: [
        { type: "device_state", friendlyName: "porch-motion", hasFilter: true },
        { type: "cron", expression: "0 23 * * *" },
      ],
    },
    () => setState("porch-light-last-on", new Date().toISOString()),
  );
  add(
    {
      name: "away-mode-watch",
      file: "automations/away-mode.ts",
      status: "running",
      triggers: [{ type: "state", key: "away-mode" }],
    },
    () => {},
  );
  add(
    {
      name: "broken-one",
      file: "automations/broken.ts",
      status: "failed",
      error: "Invalid cron expression",
      triggers: [],
    },
    () => {},
  );
  // As the real fixtures: a second file reusing porch-light's name fails to register.
  const duplicates: AutomationInfo[] = [
    {
      name: "porch-light",
      file: "automations/shadow-porch-light.ts",
      status: "failed",
      error: 'duplicate name "porch-light"',
      triggers: [{ type: "state", key: "shadow" }],
      stats: { runs: 0, errors: 0, lastRunAt: null, lastError: null, lastDurationMs: null },
    },
  ];
  const listed = () => [...[...automations.values()].map((a) => a.info), ...duplicates];
  log(30, "Engine started", { module: "engine" });
  log(40, "Device trigger skipped", { automation: "porch-light" });
  log(50, "Automation failed to load", { automation: "broken-one", err: "Invalid cron expression" });

  const auth: RequestHandler = (req, res, next) => {
    const bearer = req.headers.authorization === `Bearer ${token}`;
    const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (bearer || (cookie && sessions.isValid(cookie))) return next();
    res.status(401).json({ error: "Unauthorized" });
  };

  const api = express.Router();
  api.use(auth, express.json());
  api.get("/status", (_req, res) => {
    const list = listed();
    res.json({
      status: mqttConnected ? "ready" : "not_ready",
      checks: { mqtt: mqttConnected, engine: true },
      startedAt: startedAt.toISOString(),
      uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
      automations: {
        registered: list.filter((a) => a.status === "running").length,
        failed: list.filter((a) => a.status === "failed").length,
      },
      version: "0.1.0",
    });
  });
  api.get("/automations", (_req, res) => {
    const list = listed();
    res.json({ automations: list, count: list.length });
  });
  api.post("/automations/:name/trigger", (req, res) => {
    if (!automations.has(req.params.name)) return void res.status(404).json({ error: "Not Found" });
    if (typeof req.body?.type !== "string") return void res.status(400).json({ error: "Bad Request", details: [] });
    const error = run(req.params.name, req.body);
    if (error) res.status(500).json({ error });
    else res.json({ status: "triggered" });
  });
  api.get("/state", (_req, res) => res.json({ state: Object.fromEntries(state), count: state.size }));
  api.put("/state/:key", (req, res) => {
    const previous = setState(req.params.key, req.body.value);
    res.json({ key: req.params.key, value: req.body.value, previous });
  });
  api.delete("/state/:key", (req, res) => res.json({ key: req.params.key, deleted: state.delete(req.params.key) }));
  api.get("/logs", (req, res) => {
    const entries = logs.query({
      limit: Number(req.query.limit ?? 50),
      ...(req.query.level ? { level: Number(req.query.level) } : {}),
      ...(req.query.automation ? { automation: String(req.query.automation) } : {}),
    });
    res.json({ entries, count: entries.length });
  });
  api.get("/services", (_req, res) => res.json({ services: [], count: 0 }));
  api.get("/devices", (_req, res) => {
    const devices = [
      {
        ieee_address: "0x00158d0001a2b3c4",
        friendly_name: "porch-motion",
        type: "EndDevice",
        power_source: "Battery",
        definition: { model: "RTCGQ11LM", vendor: "Aqara", description: "Motion sensor" },
        state: { occupancy: true, battery: 91, illuminance: 12 },
      },
    ];
    res.json({ devices, count: devices.length });
  });

  const app = express();
  app.use("/api", api);
  app.use("/status", createWebUiRouter({ token, sessions, logger: new MemoryLogger(), webAppDir: builtWebApp() }));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    source: "fake engine (debug API over in-memory fakes)",
    baseUrl: `http://127.0.0.1:${port}`,
    token,
    stateGet: (key) => state.get(key),
    runs: (name) => automations.get(name)?.info.stats.runs ?? 0,
    setMqttConnected: async (connected) => {
      mqttConnected = connected;
    },
    log: (msg) => log(30, msg, { automation: "porch-light" }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
