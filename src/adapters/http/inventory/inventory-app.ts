import cors from "cors";
import express, { type Express, type RequestHandler, type Router } from "express";
import helmet from "helmet";
import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import type { InventoryUseCases } from "../../../application/inventory/inventory-use-cases.js";
import type { Logger } from "../../../ports/logger.js";
import type { TokenService } from "../../../ports/token-service.js";
import { accountRoutes } from "./account-routes.js";
import { createApiDocsRouter } from "./api-docs.js";
import { createAuthenticate, currentUserId } from "./authenticate.js";
import { AdminRequiredError } from "../../../domain/inventory/errors.js";
import { freezerRoutes } from "./freezer-routes.js";
import { categoryRoutes } from "./category-routes.js";
import type { HouseholdEventStreams } from "../../../application/inventory/household-event-streams.js";
import { householdEventsHandler, registerHouseholdEventsOpenApi } from "./household-events-route.js";
import { householdParams } from "./household-schemas.js";
import { householdRoutes } from "./household-routes.js";
import { createErrorHandler, ERROR_CODE_HEADER, HttpError, routeNotFound } from "./http-errors.js";
import { createOpenApiRegistry, generateOpenApiDocument, type OpenAPIRegistry } from "./openapi.js";
import { createRateLimiters, type RateLimitOptions } from "./rate-limits.js";
import { mountRoutes, NOTHING, type RouteDefinition, registerRoutes, validateRequest } from "./routes.js";
import { refuseDeepBodies } from "../body-shape.js";
import { validate } from "./validation.js";
import { createWebAppRouter } from "./web-app-router.js";
import {
  registerWebSessionOpenApi,
  requireWebAppRequest,
  WEB_SESSION_PATH,
  webSessionRoutes,
} from "./web-session-routes.js";

export const API_BASE_PATH = "/api/v1";
const JSON_BODY_LIMIT = "100kb";

/** Headers a browser client on an allowed origin may read, so it can pace itself. */
const EXPOSED_HEADERS = [
  "RateLimit",
  "RateLimit-Policy",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
  // Items' versions, for conditional edits (If-Match).
  "ETag",
  ERROR_CODE_HEADER,
];

/**
 * Refuses a non-empty body that express.json did not read (any type but JSON): left alone it
 * would be validated as "no body", and a PATCH would answer 200 having changed nothing.
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasContent = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  if (!hasContent || req.body !== undefined) {
    next();
    return;
  }
  next(
    new HttpError("UNSUPPORTED_MEDIA_TYPE", "Send the request body as JSON (Content-Type: application/json)", [
      { path: "", message: "the body must be JSON with Content-Type: application/json" },
    ]),
  );
};

/**
 * helmet's headers, with HSTS and CSP's `upgrade-insecure-requests` only for requests that
 * came over HTTPS (directly, or per a trusted proxy's X-Forwarded-Proto). Sent over plain
 * HTTP to a LAN name such as hearth.local, they make browsers fetch every asset over https,
 * which a home server does not serve, and the page stays blank; localhost is exempt, which
 * hides the problem on the developer's own machine.
 */
function securityHeaders(): RequestHandler {
  // The barcode scanner's decoder (zxing-wasm, served from /assets) is WebAssembly: compiling it
  // needs 'wasm-unsafe-eval', which allows WebAssembly only, not eval() of JavaScript. Item photos
  // need the session's token, so the app fetches them and shows them from blob: URLs.
  const directives = { scriptSrc: ["'self'", "'wasm-unsafe-eval'"], imgSrc: ["'self'", "data:", "blob:"] };
  const overHttps = helmet({ contentSecurityPolicy: { directives } });
  const overHttp = helmet({
    strictTransportSecurity: false,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, ...directives } },
  });
  return (req, res, next) => (req.secure ? overHttps : overHttp)(req, res, next);
}

export interface InventoryAppOptions {
  /** Allowed browser origins; empty = no cross-origin access. */
  corsOrigins: string[];
  /** Express "trust proxy" setting (false, true, hop count, or address list). */
  trustProxy: boolean | number | string;
  rateLimits: RateLimitOptions;
  /** Hearth's package version, shown as the OpenAPI document's `info.version`. */
  version: string;
  /** Runs before everything else (request metrics), so every response is observed. */
  observe?: RequestHandler;
  /** The built web app (web/dist) served at `/`; absent or unbuilt: `/` says how to build it. */
  webAppDir?: string;
  /** Lifetime of the web app's refresh cookie (JWT_REFRESH_TTL); default 30 days. */
  refreshTokenTtlSeconds?: number;
  /** The household event streams: how often they read the outbox (INVENTORY_EVENTS_POLL_MS). */
  eventStreams?: { pollIntervalMs: number };
  /** Largest item photo upload in bytes (PHOTO_MAX_BYTES); default 10 MB. */
  photoMaxBytes?: number;
  /** Where household imports are spooled while read; default the system's temporary directory. */
  importSpoolDir?: string;
}

export interface InventoryAppDependencies {
  useCases: InventoryUseCases;
  access: HouseholdAccess;
  tokens: TokenService;
  logger: Logger;
  options: InventoryAppOptions;
  /** True when the database answers; drives GET /health. */
  checkDatabase(): Promise<boolean>;
  /**
   * The items router (created with `mergeParams: true`), mounted at
   * /api/v1/households/:hid/items behind authentication and path-id validation.
   */
  itemsRouter?: Router;
  /** Adds the items paths and schemas to the OpenAPI document. */
  registerItemsOpenApi?: (registry: OpenAPIRegistry) => void;
  /**
   * Routes under /api/v1/households/:hid that read their own bodies (reminders, export,
   * streamed imports): mounted before the app's JSON parser; each route authenticates and guards itself.
   */
  householdDataRouter?: (context: {
    authenticate: RequestHandler;
    json: RequestHandler[];
    access: HouseholdAccess;
  }) => Router;
  registerHouseholdDataOpenApi?: (registry: OpenAPIRegistry) => void;
  /** GET|PUT /households/:hid/barcodes/:code (barcode-routes.ts); absent: no such routes. */
  barcodeRoutes?: RouteDefinition[];
  /** The live household event streams (GET /households/:hid/events); absent: no such route. */
  householdEvents?: HouseholdEventStreams;
  /**
   * The engine's routes for the installation's admins (the House pages), mounted at
   * /api/v1/house behind account authentication and the admin check, before the app's JSON
   * parser (the engine's router reads its own bodies, with its own limits). Absent without an
   * engine.
   */
  house?: Router;
  /** The shopping list's routes (/households/:hid/shopping-list…); absent: no such routes. */
  shoppingListRoutes?: RouteDefinition[];
  /**
   * The item photo routes (/households/:hid/items/:iid/photo), mounted at /api/v1 before the
   * app's JSON parser: an upload's body is the image. Each route authenticates and guards itself.
   */
  itemPhotoRouter?: (context: { authenticate: RequestHandler; access: HouseholdAccess }) => Router;
  registerItemPhotoOpenApi?: (registry: OpenAPIRegistry) => void;
  /** Web Push routes (public key, devices, members' reminders); absent: no such routes. */
  pushRoutes?: RouteDefinition[];
}

/** Throws 403 ADMIN_REQUIRED unless the (signed-in) user is an admin of the installation. */
async function assertAdmin(useCases: InventoryUseCases, userId: string): Promise<void> {
  const user = await useCases.getCurrentUser.execute({ userId });
  if (user.role !== "admin") throw new AdminRequiredError();
}

/** Lets only the installation's admins through; runs after authentication. */
function requireInstallationAdmin(useCases: InventoryUseCases): RequestHandler {
  return (_req, res, next) => {
    assertAdmin(useCases, currentUserId(res)).then(() => next(), next);
  };
}

/** Builds the inventory HTTP application (no listening; the caller owns the server). */
export function createInventoryApp(deps: InventoryAppDependencies): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.options.trustProxy);
  if (deps.options.observe) app.use(deps.options.observe);
  app.use(securityHeaders());
  app.use(
    cors({
      origin: deps.options.corsOrigins.length > 0 ? deps.options.corsOrigins : false,
      exposedHeaders: EXPOSED_HEADERS,
    }),
  );

  const authenticate = createAuthenticate(deps.tokens);
  const webSession = {
    apiBasePath: API_BASE_PATH,
    refreshTokenTtlSeconds: deps.options.refreshTokenTtlSeconds ?? 30 * 86400,
    corsOrigins: deps.options.corsOrigins,
  };
  const routes = [
    ...accountRoutes(deps.useCases),
    ...webSessionRoutes(deps.useCases, deps.tokens, webSession),
    ...householdRoutes(deps.useCases),
    ...freezerRoutes(deps.useCases),
    ...(deps.barcodeRoutes ?? []),
    ...(deps.shoppingListRoutes ?? []),
    ...categoryRoutes(deps.useCases),
    ...(deps.pushRoutes ?? []),
  ];

  const registry = createOpenApiRegistry();
  registerRoutes(registry, routes);
  registerWebSessionOpenApi(registry);
  deps.registerItemsOpenApi?.(registry);
  deps.registerHouseholdDataOpenApi?.(registry);
  if (deps.householdEvents) registerHouseholdEventsOpenApi(registry);
  deps.registerItemPhotoOpenApi?.(registry);
  const openApiDocument = generateOpenApiDocument(registry, deps.options.version);

  // Probes and documentation stay outside the rate limits: load balancers poll health
  // often, and Swagger UI loads a dozen assets at once.
  app.get(`${API_BASE_PATH}/health`, async (_req, res) => {
    const up = await deps.checkDatabase();
    res
      .status(up ? 200 : 503)
      .json(up ? { status: "ok", checks: { database: "up" } } : { status: "error", checks: { database: "down" } });
  });
  app.get(`${API_BASE_PATH}/openapi.json`, (_req, res) => {
    res.json(openApiDocument);
  });
  app.use("/api/docs", createApiDocsRouter());
  // The household web app: a page load fetches several files at once, like Swagger UI.
  app.use(createWebAppRouter(deps.options.webAppDir));

  const jsonBody = [
    express.json({ limit: JSON_BODY_LIMIT, type: ["application/json", "application/*+json"] }),
    requireJsonBody,
    refuseDeepBodies,
  ];
  const limiters = createRateLimiters(deps.options.rateLimits, deps.tokens);
  app.use(...limiters.general);
  app.use(`${API_BASE_PATH}/auth`, ...limiters.auth);
  if (deps.householdEvents) {
    app.get(
      `${API_BASE_PATH}/households/:hid/events`,
      authenticate,
      ...jsonBody,
      // The stream takes no query and no body: refused with 400 like every other route, before
      // the response turns into a stream that never ends.
      validateRequest(
        { params: householdParams, query: NOTHING, body: NOTHING },
        { access: deps.access, role: "member" },
      ),
      householdEventsHandler(deps.householdEvents, deps.access),
    );
  }
  if (deps.householdDataRouter) {
    app.use(
      `${API_BASE_PATH}/households/:hid`,
      deps.householdDataRouter({
        authenticate,
        access: deps.access,
        json: jsonBody,
      }),
    );
  }
  if (deps.house) {
    app.use(`${API_BASE_PATH}/house`, authenticate, requireInstallationAdmin(deps.useCases), deps.house);
  }
  if (deps.itemPhotoRouter) app.use(API_BASE_PATH, deps.itemPhotoRouter({ authenticate, access: deps.access }));
  app.use(...jsonBody);

  app.use(`${API_BASE_PATH}${WEB_SESSION_PATH}`, requireWebAppRequest(webSession));

  const api = express.Router();
  if (deps.itemsRouter) {
    api.use("/households/:hid/items", authenticate, validate("params", householdParams), deps.itemsRouter);
  }
  mountRoutes(api, routes, {
    authenticate,
    access: deps.access,
    requireAdmin: (userId) => assertAdmin(deps.useCases, userId),
  });
  app.use(API_BASE_PATH, api);

  app.use(routeNotFound);
  app.use(createErrorHandler(deps.logger));
  return app;
}
