import type { RequestHandler, Router } from "express";
import { createDebugApiRouter } from "../adapters/http/engine/debug-api-router.js";
import { createEngineAuth, type SessionValidator } from "../adapters/http/engine/engine-auth.js";
import { createWebhookRouter } from "../adapters/http/engine/webhook-router.js";
import type { Engine, EngineRoute } from "./create-engine.js";

export interface EngineRoutesOptions {
  /** Version reported by /api/status. */
  version: string;
  /** Web UI sessions accepted instead of the bearer token; null until the web UI exists. */
  sessions?: SessionValidator | null;
  /** Overrides the engine's HTTP_TOKEN (tests). */
  token?: string;
}

/**
 * The webhook router (`/webhook`, never authenticated) and the debug API (`/api`,
 * behind HTTP_TOKEN), as routes for `createEngine({ routes })`. Each router is built
 * from the engine when the HTTP server starts.
 */
export function engineRoutes(options: EngineRoutesOptions): EngineRoute[] {
  return [
    {
      path: "/webhook",
      router: (engine: Engine) =>
        createWebhookRouter({
          manager: engine.manager,
          logger: engine.logger.child({ module: "webhooks" }),
          leadership: () => engine.leadership,
        }),
    },
    {
      path: "/api",
      router: (engine: Engine) =>
        engineDebugApi(engine, {
          version: options.version,
          auth: createEngineAuth({
            token: options.token ?? engine.config.HTTP_TOKEN,
            sessions: options.sessions ?? null,
          }),
        }),
    },
  ];
}

/**
 * The engine's debug API over `engine`, behind `auth`: the engine's own `/api` (token or web UI
 * session) and, under `hearth start`, `/api/v1/house` on the API port (an admin's account).
 */
export function engineDebugApi(engine: Engine, options: { version: string; auth: RequestHandler }): Router {
  return createDebugApiRouter({
    manager: engine.manager,
    state: engine.state,
    logs: engine.logBuffer,
    mqtt: engine.mqtt,
    deviceRegistry: engine.deviceRegistry,
    services: engine.services,
    readiness: () => ({ mqtt: engine.mqtt.isConnected, engine: engine.startedAt !== null }),
    startedAt: () => engine.startedAt,
    leadership: () => engine.leadership,
    version: options.version,
    auth: options.auth,
    logger: engine.logger.child({ module: "debug-api" }),
    events: engine.eventStreams,
    // A change through the API is answered once it is kept, as every other write of Hearth's.
    persistState: () => engine.state.flush(),
  });
}
