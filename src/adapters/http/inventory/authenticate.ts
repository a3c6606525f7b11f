import type { Request, RequestHandler } from "express";
import { AuthenticationRequiredError } from "../../../domain/inventory/errors.js";
import type { TokenService } from "../../../ports/token-service.js";

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

// The rate limiter and authentication both need the caller; verifying the signature once
// per request halves the crypto work on every authenticated call.
const verified = new WeakMap<Request, string | null>();

/** The user id of the request's valid bearer token (null when absent or invalid), verified once per request. */
export function verifiedUserId(req: Request, tokens: TokenService): string | null {
  const known = verified.get(req);
  if (known !== undefined) return known;
  const token = bearerToken(req);
  const userId = token ? tokens.verifyAccessToken(token) : null;
  verified.set(req, userId);
  return userId;
}

/** Requires a valid access token and puts its user id in `res.locals.userId`. */
export function createAuthenticate(tokens: TokenService): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    if (!token) {
      next(new AuthenticationRequiredError("Missing access token: send Authorization: Bearer <token>"));
      return;
    }
    const userId = verifiedUserId(req, tokens);
    if (!userId) {
      next(new AuthenticationRequiredError("Invalid or expired access token"));
      return;
    }
    res.locals.userId = userId;
    next();
  };
}

/** The user id `authenticate` stored. */
export function currentUserId(res: { locals: Record<string, unknown> }): string {
  return res.locals.userId as string;
}
