import { type RequestHandler, Router } from "express";
import type { Metrics } from "./metrics.js";

export interface MetricsRouterDeps {
  metrics: Metrics;
  /** The engine auth middleware (HTTP_TOKEN bearer or session cookie). */
  auth: RequestHandler;
  /** METRICS_PUBLIC: serve without authentication (for a Prometheus on a trusted network). */
  public: boolean;
}

/** `GET /metrics` in Prometheus text format. Mount at the root of the engine HTTP server. */
export function createMetricsRouter(deps: MetricsRouterDeps): Router {
  const router = Router();
  const guard: RequestHandler[] = deps.public ? [] : [deps.auth];
  router.get("/metrics", ...guard, async (_req, res, next) => {
    try {
      const body = await deps.metrics.scrape();
      res.set({ "Content-Type": deps.metrics.contentType, "Cache-Control": "no-store" }).send(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
