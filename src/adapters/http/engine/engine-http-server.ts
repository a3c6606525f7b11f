import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type Express, Router } from "express";
import type { Logger } from "../../../ports/logger.js";

/** What /readyz reports. */
export interface Readiness {
  mqtt: boolean;
  engine: boolean;
  /** ISO-8601, or null before start finished. */
  startedAt: string | null;
  /** Hot standby: "leader" or "standby"; "single" without a lease. */
  role?: "single" | "leader" | "standby";
  /** Who leads the engine, when known. */
  leader?: string | null;
}

/** `GET /` sends a person who opens the bare address on to the page they came for (the web UI). */
export function redirectRoot(target: string): Router {
  const router = Router();
  router.get("/", (_request, response) => response.redirect(302, target));
  return router;
}

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The one readiness decision: /readyz and /api/status both answer from it. */
export function isReady(readiness: Pick<Readiness, "mqtt" | "engine">): boolean {
  return readiness.mqtt && readiness.engine;
}

export interface EngineHttpServerOptions {
  logger: Logger;
  readiness: () => Readiness;
}

/**
 * The engine's HTTP server: health probes, plus the routers other parts mount (webhooks at
 * /webhook, the debug API at /api, the web UI at /status, /metrics, service plugin routes).
 * Mount everything before start(); unknown routes get a JSON 404.
 */
export class EngineHttpServer {
  readonly app: Express = express();
  private server: Server | undefined;
  private closing = false;
  /** Set when the engine begins to stop: from then on nothing may change what is about to be saved. */
  private refusingChanges = false;
  private readonly mounts: { path: string; router: Router }[] = [];

  constructor(private readonly options: EngineHttpServerOptions) {
    this.app.disable("x-powered-by");
    this.app.use((request, response, next) => {
      if (!this.refusingChanges || READ_ONLY_METHODS.has(request.method)) {
        next();
        return;
      }
      // Every change answered 200 before this point is in the state that stop() saves next;
      // one accepted after it could be lost, so it is refused instead.
      response.set({ Connection: "close", "Retry-After": "10" });
      response
        .status(503)
        .json({ error: "Service Unavailable", message: "The engine is stopping; nothing can be changed now" });
    });
    this.app.get("/healthz", (_request, response) => {
      response.json({ status: "ok" });
    });
    this.app.get("/readyz", (request, response) => {
      const readiness = options.readiness();
      const ready = isReady(readiness);
      // A standby is ready to serve (the inventory API, status pages); a load balancer that
      // must reach the engine's leader (webhooks) asks /readyz?role=leader instead.
      const wantsLeader = request.query.role === "leader";
      const role = readiness.role ?? "single";
      const serves = ready && (!wantsLeader || role !== "standby");
      response.status(serves ? 200 : 503).json({
        status: ready ? "ready" : "not ready",
        checks: { mqtt: readiness.mqtt, engine: readiness.engine },
        startedAt: readiness.startedAt,
        role,
        leader: readiness.leader ?? null,
      });
    });
  }

  /** From now on, answer requests that could change state (anything but GET, HEAD, OPTIONS) with 503. */
  refuseChanges(): void {
    this.refusingChanges = true;
  }

  /** Adds a router under `path` (e.g. "/webhook", "/api", "/status", "/metrics", "/"). */
  mount(path: string, router: Router): void {
    if (this.server) throw new Error("EngineHttpServer: mount routers before start()");
    this.mounts.push({ path, router });
  }

  /** Listens on `port` (0 picks a free one); resolves with the bound port. */
  async start(port: number, host?: string): Promise<number> {
    this.refusingChanges = false;
    for (const { path, router } of this.mounts) this.app.use(path, router);
    this.app.use((request, response) => {
      response.status(404).json({ error: "Not Found", message: `No route for ${request.method} ${request.path}` });
    });
    this.app.use(this.errorHandler);
    const server = createServer(this.app);
    // Once closing, a keep-alive connection is dropped as soon as its last response is sent.
    server.on("request", (_request, response) => {
      response.on("finish", () => {
        if (this.closing) server.closeIdleConnections();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.server = server;
    const bound = (server.address() as AddressInfo).port;
    this.options.logger.info("Engine HTTP server listening", { port: bound });
    return bound;
  }

  /** The bound port, or null when not listening. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === "object" ? address.port : null;
  }

  /** Stops accepting connections, lets in-flight requests finish, then closes. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Keep-alive sockets that stay busy are cut after a grace period so stop() always ends.
    const force = setTimeout(() => server.closeAllConnections(), 5000);
    force.unref();
    await closed;
    clearTimeout(force);
    this.closing = false;
  }

  private readonly errorHandler: ErrorRequestHandler = (error, _request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    const status = typeof error?.status === "number" && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) this.options.logger.error("Engine HTTP request failed", { err: error });
    const message = status >= 500 ? "Internal Server Error" : String(error?.message ?? "Bad Request");
    response.status(status).json({ error: status >= 500 ? "Internal Server Error" : errorName(status), message });
  };
}

function errorName(status: number): string {
  const names: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    415: "Unsupported Media Type",
  };
  return names[status] ?? "Error";
}
