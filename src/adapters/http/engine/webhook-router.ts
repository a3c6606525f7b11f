import type { IncomingMessage } from "node:http";
import express, { type NextFunction, type Request, type RequestHandler, type Response, Router } from "express";
import type { AutomationManagerApi } from "../../../application/automation/contracts.js";
import type { Logger } from "../../../ports/logger.js";
import { ENGINE_BODY_LIMIT, engineErrorHandler, sendError } from "./engine-errors.js";

export interface WebhookRouterDeps {
  manager: AutomationManagerApi;
  logger: Logger;
}

const DEFAULT_WEBHOOK_METHODS = ["POST"];

function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
}
const isJson = (req: IncomingMessage) => {
  const type = mediaType(req);
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
};
const isForm = (req: IncomingMessage) => mediaType(req) === "application/x-www-form-urlencoded";

/** JSON, form or (for any other content type) text; requests without a body keep `undefined`. */
const bodyParsers: RequestHandler[] = [
  express.json({ limit: ENGINE_BODY_LIMIT, strict: false, type: isJson }),
  express.urlencoded({ limit: ENGINE_BODY_LIMIT, extended: false, type: isForm }),
  express.text({ limit: ENGINE_BODY_LIMIT, type: (req) => !isJson(req) && !isForm(req) }),
];

function runParsers(req: Request, res: Response): Promise<void> {
  return bodyParsers.reduce<Promise<void>>(
    (previous, parser) =>
      previous.then(
        () => new Promise<void>((resolve, reject) => parser(req, res, (error?: unknown) => (error ? reject(error) : resolve()))),
      ),
    Promise.resolve(),
  );
}

/** Header and query values as single strings: repeated values joined with ", ". */
export function toStringMap(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) out[name] = value.map(String).join(", ");
    else if (typeof value === "object" && value !== null) out[name] = JSON.stringify(value);
    else out[name] = String(value);
  }
  return out;
}

function webhookPath(req: Request): string {
  const raw = req.path.replace(/^\/+/, "").replace(/\/+$/, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `ALL /webhook/*`: runs every automation whose webhook trigger matches the path and
 * method, and answers once they have finished. Never authenticated (an automation
 * checks its own headers when it needs to).
 */
export function createWebhookRouter(deps: WebhookRouterDeps): Router {
  const router = Router();
  const logger = deps.logger;

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const path = webhookPath(req);
    const method = req.method.toUpperCase();
    const targets = path === "" ? [] : deps.manager.findWebhookTargets(path);
    if (targets.length === 0) {
      sendError(res, 404, `No automation listens on /webhook/${path}`);
      return;
    }
    const methodsOf = (target: { methods: string[] }) =>
      (target.methods.length ? target.methods : DEFAULT_WEBHOOK_METHODS).map((m) => m.toUpperCase());
    const matching = targets.filter((target) => methodsOf(target).includes(method));
    if (matching.length === 0) {
      const allowed = [...new Set(targets.flatMap(methodsOf))].sort();
      res.set("Allow", allowed.join(", "));
      sendError(res, 405, `/webhook/${path} accepts ${allowed.join(", ")}, not ${method}`);
      return;
    }
    try {
      await runParsers(req, res);
    } catch (error) {
      next(error);
      return;
    }
    const context = {
      type: "webhook" as const,
      path,
      method,
      headers: toStringMap(req.headers),
      query: toStringMap(req.query as Record<string, unknown>),
      body: req.body as unknown,
    };
    const results = await Promise.all(
      matching.map((target) =>
        deps.manager.runAutomation(target.name, context).catch((error: unknown) => ({
          status: "error" as const,
          error: errorMessage(error),
        })),
      ),
    );
    const failures = results.flatMap((result) => (result.status === "error" ? [result.error] : []));
    if (failures.length > 0) {
      logger.warn("Webhook automation failed", { path, method, errors: failures });
      const message = failures.join("; ");
      res.status(500).json({ error: message, message });
      return;
    }
    res.json({ status: "ok" });
  });

  router.use(engineErrorHandler(logger));
  return router;
}
