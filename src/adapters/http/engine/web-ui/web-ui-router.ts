import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Request, type RequestHandler, type Response } from "express";
import { rateLimit } from "express-rate-limit";
import type { Logger } from "../../../../ports/logger.js";
import { readCookie, SESSION_COOKIE, tokensMatch } from "../engine-auth.js";
import type { SessionStore } from "../session-store.js";
import { type LoginAssetUrls, renderAppPage, renderLoginPage, renderMessagePage } from "./pages.js";

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
  /** Where the page calls the debug API (its event stream is `<apiBase>/events`). Default "/api". */
  apiBase?: string;
  /** Login attempts allowed per address per window. Default 5 per 60 s. */
  loginLimit?: { max: number; windowMs: number };
  /**
   * The web build's output (scripts/build-web.mjs: web/dist), whose status/ folder holds the
   * console's entry. Default: the package's own web/dist.
   */
  webAppDir?: string;
}

interface Asset {
  body: Buffer;
  type: string;
  hash: string;
  /** Precompressed copies (the web build writes .br and .gz beside its files), by encoding. */
  encoded: Map<"br" | "gzip", Buffer>;
}

/** The package's web/dist: src/… and dist/… sit at the same depth, so one path fits both. */
const PACKAGE_WEB_APP_DIR = fileURLToPath(new URL("../../../../../web/dist/", import.meta.url));

/** The sign-in page's own files, beside this module (scripts/build.mjs copies them to dist/). */
const OWN_ASSETS: Record<string, string> = {
  "login.css": "text/css; charset=utf-8",
  "icon.svg": "image/svg+xml",
};

/** The console: the web build's second entry (web/src/status/main.tsx). */
const CONSOLE_ASSETS: Record<string, string> = {
  "status.js": "text/javascript; charset=utf-8",
  "status.css": "text/css; charset=utf-8",
};

function readAsset(file: string, type: string): Asset {
  const body = readFileSync(file);
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  const encoded = new Map<"br" | "gzip", Buffer>();
  for (const [encoding, suffix] of [
    ["br", ".br"],
    ["gzip", ".gz"],
  ] as const) {
    if (existsSync(file + suffix)) encoded.set(encoding, readFileSync(file + suffix));
  }
  return { body, type, hash, encoded };
}

/**
 * Read once at creation: the assets never change while the process runs. The console's files
 * are missing when the web app was never built (a checkout before `npm run build`): then the
 * page says how to build it instead.
 */
function loadAssets(webAppDir: string): { assets: Map<string, Asset>; built: boolean } {
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(OWN_ASSETS)) {
    assets.set(name, readAsset(fileURLToPath(new URL(`./assets/${name}`, import.meta.url)), type));
  }
  const consoleDir = path.join(webAppDir, "status");
  const built = Object.keys(CONSOLE_ASSETS).every((name) => existsSync(path.join(consoleDir, name)));
  if (built) {
    for (const [name, type] of Object.entries(CONSOLE_ASSETS)) {
      assets.set(name, readAsset(path.join(consoleDir, name), type));
    }
  }
  return { assets, built };
}

/** The smallest copy of `asset` the request accepts. */
function pickEncoding(req: Request, asset: Asset): { body: Buffer; encoding: "br" | "gzip" | null } {
  for (const encoding of ["br", "gzip"] as const) {
    const body = asset.encoded.get(encoding);
    if (body && req.acceptsEncodings(encoding) === encoding) return { body, encoding };
  }
  return { body: asset.body, encoding: null };
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
 * login flow (when a token is configured), and the shell of the web app's console entry
 * (web/src/status/) with its assets. The console reads everything from the debug API and its
 * event stream, which accept the session cookie set here.
 */
export function createWebUiRouter(deps: WebUiRouterDeps): express.Express {
  const token = deps.token && deps.token.length > 0 ? deps.token : undefined;
  const apiBase = deps.apiBase ?? "/api";
  const logger = deps.logger.child({ module: "web-ui" });
  const limit = deps.loginLimit ?? { max: 5, windowMs: 60_000 };
  const { assets, built } = loadAssets(deps.webAppDir ?? PACKAGE_WEB_APP_DIR);

  const app = express();
  app.disable("x-powered-by");
  if (deps.trustProxy !== undefined) app.set("trust proxy", deps.trustProxy);

  const assetUrl = (req: Request, name: string) => `${req.baseUrl}/assets/${name}?v=${assets.get(name)?.hash ?? ""}`;
  const loginAssets = (req: Request): LoginAssetUrls => ({
    css: assetUrl(req, "login.css"),
    icon: assetUrl(req, "icon.svg"),
  });
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
    const { body, encoding } = pickEncoding(req, asset);
    res.set({ "Content-Type": asset.type, "Cache-Control": cache, "X-Content-Type-Options": "nosniff" });
    if (asset.encoded.size > 0) res.set("Vary", "Accept-Encoding");
    if (encoding) res.set("Content-Encoding", encoding);
    res.send(body);
  });

  app.get("/", (req, res) => {
    if (!hasSession(req)) {
      res.redirect(303, loginUrl(req));
      return;
    }
    if (!built) {
      sendHtml(
        res,
        503,
        renderMessagePage({
          title: "Not built",
          message: "The engine web UI is not built: run npm run build in the Hearth folder, then reload.",
          link: { href: homeUrl(req), label: "Reload" },
          assets: loginAssets(req),
        }),
      );
      return;
    }
    sendHtml(
      res,
      200,
      renderAppPage({
        assets: { css: assetUrl(req, "status.css"), js: assetUrl(req, "status.js"), icon: assetUrl(req, "icon.svg") },
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
    sendHtml(res, 200, renderLoginPage({ action: loginUrl(req), assets: loginAssets(req) }));
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
          assets: loginAssets(req),
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
        renderLoginPage({ action: loginUrl(req), assets: loginAssets(req), error: "That token is not correct." }),
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
