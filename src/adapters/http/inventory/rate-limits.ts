import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import type { TokenService } from "../../../ports/token-service.js";
import { verifiedUserId } from "./authenticate.js";
import { HttpError } from "./http-errors.js";

export interface RateLimitOptions {
  /** Requests per minute per signed-in user (per address before sign-in) on every route. */
  perMinute: number;
  /** Additional per-address limit on /auth/*. */
  authPerMinute: number;
  /**
   * Builds a shared counter store (Redis) for a limiter; each limiter needs its own store
   * and key prefix. Without it counters live in this process's memory.
   */
  createStore?: (prefix: string) => Store;
}

const WINDOW_MS = 60_000;

function clientAddress(req: Request): string {
  return `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? "unknown")}`;
}

/**
 * Adds the single-header form of the IETF draft (`RateLimit: limit=…, remaining=…, reset=…`)
 * beside the `RateLimit-Limit/-Remaining/-Reset` headers express-rate-limit sends, so
 * clients written against either draft find what they look for.
 */
function setCombinedHeader(req: Request, res: Response): void {
  const info = (req as Request & { rateLimit?: { limit: number; remaining: number; resetTime?: Date } }).rateLimit;
  if (info) {
    const reset = info.resetTime ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)) : 60;
    res.setHeader("RateLimit", `limit=${info.limit}, remaining=${info.remaining}, reset=${reset}`);
  }
}

const combinedHeader: RequestHandler = (req, res, next) => {
  setCombinedHeader(req, res);
  next();
};

function limiter(
  limit: number,
  key: (req: Request) => string,
  store: Store | undefined,
  skip?: (req: Request) => boolean,
): RequestHandler {
  return rateLimit({
    ...(skip ? { skip } : {}),
    windowMs: WINDOW_MS,
    limit,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    keyGenerator: key,
    ...(store ? { store } : {}),
    // Keep serving when Redis hiccups rather than turning every request into a 500.
    passOnStoreError: true,
    handler: (req, res, next) => {
      // The refusing limiter's own numbers: without this, the single-header form would still
      // describe the limiter that ran before (limit=100 on a 429 from the /auth limit of 10).
      setCombinedHeader(req, res);
      const info = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit;
      if (!res.getHeader("Retry-After")) {
        const seconds = info?.resetTime ? Math.ceil((info.resetTime.getTime() - Date.now()) / 1000) : 60;
        res.setHeader("Retry-After", String(Math.max(1, seconds)));
      }
      next(new HttpError("RATE_LIMITED", "Too many requests; try again later"));
    },
  });
}

/**
 * A refresh presents a random 256-bit token: there is nothing to guess, so the tight /auth
 * limit (against password guessing) leaves it out. The web app refreshes on every page load,
 * and a family behind one address would otherwise run into it.
 */
function isRefresh(req: Request): boolean {
  return req.method === "POST" && (req.path === "/refresh" || req.path === "/web/refresh");
}

/**
 * The two limiters: `general` for every route (keyed by the signed-in user when the
 * request carries a valid access token, else by client address) and `auth` for /auth/*.
 */
export function createRateLimiters(
  options: RateLimitOptions,
  tokens: TokenService,
): { general: RequestHandler[]; auth: RequestHandler[] } {
  const userOrAddress = (req: Request): string => {
    const userId = verifiedUserId(req, tokens);
    return userId ? `user:${userId}` : clientAddress(req);
  };
  return {
    general: [limiter(options.perMinute, userOrAddress, options.createStore?.("hearth:rl:general:")), combinedHeader],
    auth: [
      limiter(options.authPerMinute, clientAddress, options.createStore?.("hearth:rl:auth:"), isRefresh),
      combinedHeader,
    ],
  };
}
