import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";

/** Name of the cookie the web UI sets after login. */
export const SESSION_COOKIE = "hearth_session";

/** Answers whether a web UI session id is current (the web UI's session store implements it). */
export interface SessionValidator {
  isValid(sessionId: string): boolean;
}

export interface EngineAuthOptions {
  /** HTTP_TOKEN; undefined or empty means no authentication. */
  token: string | undefined;
  sessions: SessionValidator | null;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Compares in constant time: hashing first gives equal lengths, so the length leaks nothing either. */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Reads one cookie from a Cookie header without a cookie-parsing dependency. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim();
}

/**
 * Set on `res.locals` when the caller proved who they are (token or session). Routes that
 * hold secrets (the HomeKit setup code) check it: without HTTP_TOKEN every request passes
 * the middleware, yet none is authenticated.
 */
export const AUTHENTICATED_LOCAL = "hearthAuthenticated";

/** Whether the request passed {@link createEngineAuth} by proving the token or a session. */
export function isAuthenticated(res: { locals: Record<string, unknown> }): boolean {
  return res.locals[AUTHENTICATED_LOCAL] === true;
}

/**
 * Protects the debug API: with HTTP_TOKEN set, a request needs `Authorization: Bearer
 * <token>` or a valid web UI session cookie; otherwise 401 with `WWW-Authenticate`.
 * Without a token every request passes.
 */
export function createEngineAuth(options: EngineAuthOptions): RequestHandler {
  const token = options.token && options.token.length > 0 ? options.token : undefined;
  if (token === undefined) return (_req, _res, next) => next();
  return (req, res, next) => {
    const given = bearerToken(req.headers.authorization);
    if (given !== undefined && tokensMatch(given, token)) {
      res.locals[AUTHENTICATED_LOCAL] = true;
      next();
      return;
    }
    const sessionId = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (sessionId && options.sessions?.isValid(sessionId)) {
      res.locals[AUTHENTICATED_LOCAL] = true;
      next();
      return;
    }
    res
      .status(401)
      .set("WWW-Authenticate", 'Bearer realm="hearth"')
      .json({
        error: "Unauthorized",
        message:
          given === undefined
            ? "Send Authorization: Bearer <HTTP_TOKEN> or log in to the web UI"
            : "The bearer token is not valid",
      });
  };
}
