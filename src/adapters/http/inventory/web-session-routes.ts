import type { CookieOptions, Request, RequestHandler, Response } from "express";
import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import { InvalidRefreshTokenError } from "../../../domain/inventory/errors.js";
import type { TokenService } from "../../../ports/token-service.js";
import { loginBody, registerBody, webSessionResponse } from "./account-schemas.js";
import { HttpError } from "./http-errors.js";
import { messageResponseSchema, type OpenAPIRegistry } from "./openapi.js";
import { defineRoute, type RouteDefinition } from "./routes.js";

/**
 * The web app's sessions. Unlike /auth/login, these routes never put the refresh token in a
 * response body: it lives in an HttpOnly cookie page scripts cannot read, scoped to this path
 * so no other request carries it. The access token they return is kept in memory by the app.
 */
export const WEB_SESSION_PATH = "/auth/web";
export const REFRESH_COOKIE = "hearth_refresh";
/** The header the web app sends on every cookie route; see requireWebAppRequest. */
export const WEB_CLIENT_HEADER = "x-hearth-client";

export interface WebSessionOptions {
  /** Where the API is mounted, e.g. /api/v1: the cookie's Path is `${apiBasePath}/auth/web`. */
  apiBasePath: string;
  /** Lifetime of the cookie; the refresh token's own expiry is checked on the server anyway. */
  refreshTokenTtlSeconds: number;
  /** Allowed browser origins besides the API's own (CORS_ORIGINS). */
  corsOrigins: string[];
}

/** How both refresh routes treat a token presented twice; shown in the OpenAPI document. */
export const REFRESH_REUSE_DESCRIPTION =
  "Refresh tokens are single use: each refresh rotates the token. For JWT_REFRESH_REUSE_INTERVAL (default 30 s) " +
  "after a rotation, the rotated token yields the same successor again (with a fresh access token), so two tabs or " +
  "apps refreshing at once both stay signed in. Presenting a rotated token later revokes the whole session (401).";

/** Documents the refresh cookie and the CSRF header in the OpenAPI document. */
export function registerWebSessionOpenApi(registry: OpenAPIRegistry): void {
  registry.registerComponent("securitySchemes", "webRefreshCookie", {
    type: "apiKey",
    in: "cookie",
    name: REFRESH_COOKIE,
    description:
      "The web app's refresh token: set by /auth/web/register and /auth/web/login as an HttpOnly, SameSite=Strict " +
      "cookie with Path=/api/v1/auth/web (Secure over HTTPS), rotated by /auth/web/refresh, cleared by /auth/web/logout. " +
      `Every /auth/web/* request must send the header ${WEB_CLIENT_HEADER}: web, and an Origin (if any) of the API's own ` +
      "site or CORS_ORIGINS; otherwise 403 CSRF_REJECTED.",
  });
}

function cookieOptions(req: Request, options: WebSessionOptions): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "strict",
    secure: req.secure,
    path: `${options.apiBasePath}${WEB_SESSION_PATH}`,
  };
}

/** The value of one cookie of the request, or undefined. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      // A malformed escape is not a token we issued; treat it as no cookie.
      return undefined;
    }
  }
  return undefined;
}

/**
 * CSRF protection for the cookie routes, on top of SameSite=Strict: a browser sends the custom
 * header cross-origin only after a CORS preflight the API answers for CORS_ORIGINS alone, and
 * an Origin (when the browser sends one) must be the API's own or one of those.
 */
export function requireWebAppRequest(options: Pick<WebSessionOptions, "corsOrigins">): RequestHandler {
  return (req, _res, next) => {
    if (req.headers[WEB_CLIENT_HEADER] !== "web") {
      next(new HttpError("CSRF_REJECTED", `Cookie session routes need the header ${WEB_CLIENT_HEADER}: web`));
      return;
    }
    const origin = req.headers.origin;
    const ownOrigin = `${req.protocol}://${req.get("host") ?? ""}`;
    if (origin !== undefined && origin !== ownOrigin && !options.corsOrigins.includes(origin)) {
      next(new HttpError("CSRF_REJECTED", "This request came from a page of another site"));
      return;
    }
    next();
  };
}

function startSession(
  res: Response,
  options: WebSessionOptions,
  session: { accessToken: string; refreshToken: string },
): void {
  res.cookie(REFRESH_COOKIE, session.refreshToken, {
    ...cookieOptions(res.req, options),
    maxAge: options.refreshTokenTtlSeconds * 1000,
  });
}

/** /auth/web/*: register, login, refresh and logout with the refresh token in a cookie. */
export function webSessionRoutes(
  useCases: InventoryUseCases,
  tokens: TokenService,
  options: WebSessionOptions,
): RouteDefinition[] {
  const tags = ["Web app session"];
  return [
    defineRoute({
      method: "post",
      path: `${WEB_SESSION_PATH}/register`,
      summary: "Create an account and sign the web app in (refresh token in an HttpOnly cookie)",
      tags,
      auth: false,
      body: registerBody,
      status: 201,
      response: webSessionResponse,
      errors: [403, 409],
      handler: async ({ body, res }) => {
        const session = await useCases.register.execute(body);
        startSession(res, options, session);
        return { accessToken: session.accessToken, user: session.user };
      },
    }),
    defineRoute({
      method: "post",
      path: `${WEB_SESSION_PATH}/login`,
      summary: "Sign the web app in (refresh token in an HttpOnly cookie)",
      tags,
      auth: false,
      body: loginBody,
      status: 200,
      response: webSessionResponse,
      errors: [401, 403],
      handler: async ({ body, res }) => {
        const session = await useCases.login.execute(body);
        startSession(res, options, session);
        return { accessToken: session.accessToken, user: session.user };
      },
    }),
    defineRoute({
      method: "post",
      path: `${WEB_SESSION_PATH}/refresh`,
      summary: "Rotate the refresh cookie for a new access token",
      description: REFRESH_REUSE_DESCRIPTION,
      tags,
      auth: false,
      status: 200,
      response: webSessionResponse,
      errors: [401, 403],
      handler: async ({ res }) => {
        const refreshToken = readCookie(res.req, REFRESH_COOKIE);
        if (!refreshToken) throw new InvalidRefreshTokenError();
        const pair = await useCases.refreshTokens.execute({ refreshToken });
        startSession(res, options, pair);
        const userId = tokens.verifyAccessToken(pair.accessToken);
        if (!userId) throw new InvalidRefreshTokenError();
        const user = await useCases.getCurrentUser.execute({ userId });
        return { accessToken: pair.accessToken, user };
      },
    }),
    defineRoute({
      method: "post",
      path: `${WEB_SESSION_PATH}/logout`,
      summary: "End the web app's session on this device and clear its cookie",
      tags,
      auth: false,
      status: 200,
      response: messageResponseSchema,
      errors: [403],
      handler: async ({ res }) => {
        const refreshToken = readCookie(res.req, REFRESH_COOKIE);
        res.clearCookie(REFRESH_COOKIE, cookieOptions(res.req, options));
        if (!refreshToken) return { message: "Logged out" };
        return useCases.logout.execute({ refreshToken });
      },
    }),
  ];
}
