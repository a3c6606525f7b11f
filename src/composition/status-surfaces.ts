/**
 * Mounts the web UI (/status) and the Prometheus endpoint (/metrics) on an engine's HTTP
 * server. Call after createEngine() and before engine.start(); share `sessions` with
 * engineRoutes({ sessions }) so the debug API accepts the web UI's session cookie.
 */
import path from "node:path";
import { createEngineAuth } from "../adapters/http/engine/engine-auth.js";
import { redirectRoot } from "../adapters/http/engine/engine-http-server.js";
import type { SessionStore } from "../adapters/http/engine/session-store.js";
import { createWebUiRouter } from "../adapters/http/engine/web-ui/web-ui-router.js";
import type { Metrics } from "../adapters/services/metrics/metrics.js";
import { createMetricsRouter } from "../adapters/services/metrics/metrics-router.js";
import type { Router } from "express";
import type { Engine } from "./create-engine.js";

export interface StatusSurfacesOptions {
  sessions: SessionStore;
  /** From createMetrics() when METRICS_ENABLED; null leaves /metrics unmounted. */
  metrics: Metrics | null;
}

/**
 * The web UI for /status, configured from the engine's HTTP_TOKEN and TRUST_PROXY; give it
 * the session store the debug API uses, so logging in to the page also opens /api.
 */
export function createStatusRouter(engine: Engine, sessions: SessionStore): Router {
  const { config } = engine;
  return createWebUiRouter({
    token: config.HTTP_TOKEN,
    sessions,
    logger: engine.logger,
    trustProxy: config.TRUST_PROXY,
    // The console is the web build's second entry: it comes from the same build as the family app.
    ...(config.WEB_APP_DIR ? { webAppDir: path.resolve(config.WEB_APP_DIR) } : {}),
  });
}

export function mountStatusSurfaces(engine: Engine, options: StatusSurfacesOptions): void {
  const server = engine.httpServer;
  const { config } = engine;
  if (!server) {
    // Metrics still time the inventory API, but nothing can scrape them: say why /metrics is missing.
    if (options.metrics)
      engine.logger.warn(
        "METRICS_ENABLED is set but HTTP_PORT=0 turns the engine HTTP server off: /metrics is not served",
      );
    return;
  }
  if (options.metrics) {
    // Routers are attached at start(), so this runs before every one of them (the probes,
    // registered earlier, stay untimed on purpose: they would drown the real traffic).
    server.app.use(options.metrics.httpMiddleware("engine"));
    server.mount(
      "/",
      createMetricsRouter({
        metrics: options.metrics,
        auth: createEngineAuth({ token: config.HTTP_TOKEN, sessions: options.sessions }),
        public: config.METRICS_PUBLIC,
      }),
    );
  }
  if (config.WEB_UI_ENABLED) {
    server.mount("/", redirectRoot("/status"));
    server.mount("/status", createStatusRouter(engine, options.sessions));
  }
}
