import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import express, { type Request, type RequestHandler, type Response } from "express";
import { rateLimit } from "express-rate-limit";
import type { Logger } from "../../../../ports/logger.js";
import { readCookie, SESSION_COOKIE, tokensMatch } from "../engine-auth.js";
import type { SessionStore } from "../session-store.js";
import { type AssetUrls, renderAppPage, renderLoginPage, renderMessagePage } from "./pages.js";

export interface WebUiRouterDeps {
  /** HTTP_TOKEN; undefined or empty means no login is asked. */
  token: string | undefined;
  sessions: SessionStore;
  logger: Logger;
  /**
   * Express "trust proxy" for this sub-app (decides req.secure and req.ip behind a
   * reverse proxy). Omit to inherit the setting of the app it is mounted on.
   */
  trustProxy?: boolean | number | string;
  /** Where the page calls the debug API. Default "/api". */
  apiBase?: string;
  /** Login attempts allowed per address per window. Default 5 per 60 s. */
  loginLimit?: { max: number; windowMs: number };
}

interface Asset {
  body: Buffer;
  type: string;
  hash: string;
}

const ASSET_TYPES: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
  "icon.svg": "image/svg+xml",
};

/** Read once at creation: the assets are small and never change while the process runs. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(ASSET_TYPES)) {
    const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
    assets.set(name, { body, type, hash });
  }
  return assets;
}

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Security headers for every page: everything comes from Hearth itself, nothing inline. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function sendHtml(res: Response, status: number, html: string): void {
  // HSTS only over HTTPS (directly or via a trusted proxy): sent over plain HTTP on a LAN name
  // it would make the browser insist on an https the box does not serve.
  if (res.req.secure) res.set("Strict-Transport-Security", "max-age=15552000");
  res
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": CONTENT_SECURITY_POLICY,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    })
    .send(html);
}

function sessionCookie(req: Request, value: string, maxAgeSeconds: number): string {
  const parts = [`${SESSION_COOKIE}=${value}`, "Path=/", `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Strict"];
  if (req.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * The engine's web UI, to be mounted at `/status` on the engine HTTP server. Serves the
 * login flow (when a token is configured), the single-page app shell and its assets.
 * The page reads everything from the debug API, which accepts the session cookie set here.
 */
export function createWebUiRouter(deps: WebUiRouterDeps): express.Express {
  const token = deps.token && deps.token.length > 0 ? deps.token : undefined;
  const apiBase = deps.apiBase ?? "/api";
  const logger = deps.logger.child({ module: "web-ui" });
  const limit = deps.loginLimit ?? { max: 5, windowMs: 60_000 };
  const assets = loadAssets();

  const app = express();
  app.disable("x-powered-by");
  if (deps.trustProxy !== undefined) app.set("trust proxy", deps.trustProxy);

  const assetUrls = (req: Request): AssetUrls => {
    const url = (name: string) => `${req.baseUrl}/assets/${name}?v=${assets.get(name)?.hash ?? ""}`;
    return { css: url("app.css"), js: url("app.js"), icon: url("icon.svg") };
  };
  const loginUrl = (req: Request) => `${req.baseUrl}/login`;
  const homeUrl = (req: Request) => req.baseUrl || "/";

  const hasSession = (req: Request): boolean => {
    if (!token) return true;
    const id = readCookie(req.headers.cookie, SESSION_COOKIE);
    return id !== undefined && deps.sessions.isValid(id);
  };

  app.get("/assets/:name", (req, res) => {
    const asset = assets.get(req.params.name);
    if (!asset) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    // URLs carry the content hash, so a new version is a new URL and the old one may be cached for good.
    const cache = req.query.v === asset.hash ? "public, max-age=31536000, immutable" : "no-cache";
    res.set({ "Content-Type": asset.type, "Cache-Control": cache, "X-Content-Type-Options": "nosniff" });
    res.send(asset.body);
  });

  app.get("/", (req, res) => {
    if (!hasSession(req)) {
      res.redirect(303, loginUrl(req));
      return;
    }
    sendHtml(
      res,
      200,
      renderAppPage({
        assets: assetUrls(req),
        apiBase,
        logoutAction: token ? `${req.baseUrl}/logout` : null,
        loginUrl: token ? loginUrl(req) : null,
      }),
    );
  });

  app.get("/login", (req, res) => {
    if (!token || hasSession(req)) {
      res.redirect(303, homeUrl(req));
      return;
    }
    sendHtml(res, 200, renderLoginPage({ action: loginUrl(req), assets: assetUrls(req) }));
  });

  const loginLimiter = rateLimit({
    windowMs: limit.windowMs,
    limit: limit.max,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    // Trust-proxy advice from the library goes to console; the docs cover TRUST_PROXY instead.
    validate: { trustProxy: false, xForwardedForHeader: false },
    handler: (req, res, _next, options) => {
      logger.warn("Too many web UI login attempts", { ip: req.ip });
      res.set("Retry-After", String(Math.ceil(options.windowMs / 1000)));
      sendHtml(
        res,
        429,
        renderMessagePage({
          title: "Too many attempts",
          message: "Too many sign-in attempts from this address. Wait a minute and try again.",
          link: { href: loginUrl(req), label: "Back to sign in" },
          assets: assetUrls(req),
        }),
      );
    },
  });

  const login: RequestHandler = (req, res) => {
    if (!token) {
      res.redirect(303, homeUrl(req));
      return;
    }
    const given = typeof req.body?.token === "string" ? req.body.token : "";
    if (!tokensMatch(given, token)) {
      logger.warn("Web UI login failed", { ip: req.ip });
      sendHtml(
        res,
        401,
        renderLoginPage({ action: loginUrl(req), assets: assetUrls(req), error: "That token is not correct." }),
      );
      return;
    }
    const session = deps.sessions.create();
    logger.info("Web UI login", { ip: req.ip });
    res.set("Set-Cookie", sessionCookie(req, session.id, SESSION_MAX_AGE_SECONDS));
    res.redirect(303, homeUrl(req));
  };
  app.post("/login", loginLimiter, express.urlencoded({ extended: false, limit: "4kb" }), login);

  const logout: RequestHandler = (req, res) => {
    const id = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (id !== undefined) deps.sessions.destroy(id);
    res.set("Set-Cookie", sessionCookie(req, "", 0));
    res.redirect(303, token ? loginUrl(req) : homeUrl(req));
  };
  app.post("/logout", logout);
  app.get("/logout", logout);

  return app;
}
