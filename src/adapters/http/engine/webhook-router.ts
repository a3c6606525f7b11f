import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import express, { type NextFunction, type Request, type RequestHandler, type Response, Router } from "express";
import type { AutomationManagerApi, WebhookTarget } from "../../../ports/automation-catalog.js";
import { defaultWebhookHeader } from "../../../application/automation/trigger-handlers.js";
import { webhookAnswer } from "../../../application/automation/webhook-answer.js";
import type { WebhookSecret } from "../../../domain/automation/trigger.js";
import { nonFiniteTriggerInput } from "../../../domain/automation/trigger-input.js";
import type { LeadershipStatus } from "../../../ports/leader-lease.js";
import type { Logger } from "../../../ports/logger.js";
import { refuseDeepBodies } from "../body-shape.js";
import { ENGINE_BODY_LIMIT, engineErrorHandler, sendError } from "./engine-errors.js";
import { refuseOnStandby } from "./standby-guard.js";

export interface WebhookRouterDeps {
  manager: AutomationManagerApi;
  logger: Logger;
  /** Hot standby: a standby runs no automations, so it answers 503 naming the leader. */
  leadership?: () => LeadershipStatus;
}

const DEFAULT_WEBHOOK_METHODS = ["POST"];

function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
}
const isJson = (req: IncomingMessage) => {
  const type = mediaType(req);
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
};
const isForm = (req: IncomingMessage) => mediaType(req) === "application/x-www-form-urlencoded";

/** The body exactly as sent, kept for HMAC signatures (a re-serialised JSON body would not match). */
const RAW_BODY = Symbol("rawBody");
type WithRawBody = IncomingMessage & { [RAW_BODY]?: Buffer };
const keepRawBody = (req: IncomingMessage, _res: unknown, buffer: Buffer) => {
  (req as WithRawBody)[RAW_BODY] = buffer;
};

/** JSON, form or (for any other content type) text; requests without a body keep `undefined`. */
const bodyParsers: RequestHandler[] = [
  express.json({ limit: ENGINE_BODY_LIMIT, strict: false, type: isJson, verify: keepRawBody }),
  express.urlencoded({ limit: ENGINE_BODY_LIMIT, extended: false, type: isForm, verify: keepRawBody }),
  express.text({ limit: ENGINE_BODY_LIMIT, type: (req) => !isJson(req) && !isForm(req), verify: keepRawBody }),
  // An automation's trace and its state cannot keep a body nested thousands deep.
  refuseDeepBodies,
];

/** Equal strings in time that does not depend on where they differ (nor, via hashing, on their lengths). */
function constantTimeEqual(given: string, expected: string): boolean {
  const a = createHmac("sha256", "webhook-compare").update(given).digest();
  const b = createHmac("sha256", "webhook-compare").update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** Whether the request proves `secret`: the token in its header (or as a bearer token), or a valid body signature. */
export function provesSecret(req: Request, secret: WebhookSecret): boolean {
  const header = (secret.header ?? defaultWebhookHeader(secret)).toLowerCase();
  const sent = req.headers[header];
  const value = Array.isArray(sent) ? sent[0] : sent;
  if (secret.type === "token") {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    return [value, bearer].some(
      (candidate) => typeof candidate === "string" && constantTimeEqual(candidate.trim(), secret.token),
    );
  }
  if (typeof value !== "string") return false;
  const algorithm = secret.algorithm ?? "sha256";
  const signature = value
    .trim()
    .replace(new RegExp(`^${algorithm}=`, "i"), "")
    .toLowerCase();
  const body = (req as WithRawBody)[RAW_BODY] ?? Buffer.alloc(0);
  const expected = createHmac(algorithm, secret.secret).update(body).digest("hex");
  return constantTimeEqual(signature, expected);
}

/** Targets whose trigger for `method` either has no secret or has one this request proves. */
function admitted(req: Request, targets: WebhookTarget[], method: string): WebhookTarget[] {
  return targets.filter((target) =>
    target.triggers.some(
      (trigger) =>
        trigger.methods.map((m) => m.toUpperCase()).includes(method) &&
        (!trigger.secret || provesSecret(req, trigger.secret)),
    ),
  );
}

function runParsers(req: Request, res: Response): Promise<void> {
  return bodyParsers.reduce<Promise<void>>(
    (previous, parser) =>
      previous.then(
        () =>
          new Promise<void>((resolve, reject) =>
            parser(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
          ),
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
 * checks its own headers when it needs to). How the runs ended decides the answer, first
 * match wins: one failed, 500; one refused the request (WebhookRefusedError), its status;
 * one was dropped by its run mode, 409; else 200. A JSON body holding a number out of range
 * (1e400, which JSON.parse reads as Infinity) runs nothing: 400 TRIGGER_INPUT_NOT_FINITE.
 */
export function createWebhookRouter(deps: WebhookRouterDeps): Router {
  const router = Router();
  const logger = deps.logger;

  // Every method: a GET webhook runs automations too, and a standby has none loaded (a 404
  // would tell the caller the path does not exist).
  router.use(refuseOnStandby(deps.leadership, "all"));
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
    const allowed = admitted(req, matching, method);
    if (allowed.length === 0) {
      logger.warn("Webhook refused: missing or wrong secret", { path, method, ip: req.ip });
      sendError(res, 401, `/webhook/${path} needs its secret (a token header, or a signature of the body)`);
      return;
    }
    // After the secret check: a caller without the secret learns nothing about what bodies pass.
    const nonFinite = nonFiniteTriggerInput(req.body);
    if (nonFinite !== null) {
      next(nonFinite);
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
      allowed.map((target) =>
        deps.manager.runAutomation(target.name, context).catch((error: unknown) => ({
          status: "error" as const,
          error: errorMessage(error),
        })),
      ),
    );
    const answer = webhookAnswer(results);
    if (answer.status === 500) {
      const failures = results.flatMap((result, index) =>
        result.status === "error" ? [{ automation: allowed[index]?.name, error: result.error }] : [],
      );
      // Webhooks answer anyone: the exception's text stays in the log and the automation's
      // stats, and the caller gets an id to find it there.
      const errorId = randomUUID();
      logger.error("Webhook automation failed", { path, method, errorId, failures });
      res.status(500).json({
        error: "Internal Server Error",
        message: `The automation failed; look for error id ${errorId} in the engine log`,
        errorId,
      });
      return;
    }
    // The caller's mistake, as the automation judged it.
    if (answer.refusal) {
      sendError(res, answer.status, answer.refusal.message, answer.refusal.details);
      return;
    }
    if (answer.status === 409) {
      const dropped = results.flatMap((result, index) =>
        result.status === "dropped" ? [{ automation: allowed[index]?.name ?? "", reason: result.reason }] : [],
      );
      sendError(
        res,
        409,
        dropped.map((entry) => `Automation "${entry.automation}" did not run: ${entry.reason}`).join("; "),
      );
      return;
    }
    res.json({ status: "ok" });
  });

  router.use(engineErrorHandler(logger));
  return router;
}
