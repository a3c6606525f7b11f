import { STATUS_CODES } from "node:http";
import type { RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { currentUserId } from "./authenticate.js";
import { BEARER_AUTH, errorResponseSchema, type OpenAPIRegistry } from "./openapi.js";
import type { HouseholdAccess } from "../../../application/inventory/household-access.js";
import { idSchema, parseWith } from "./validation.js";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/** What a handler sees: the caller and the validated request parts. */
export interface RouteContext<P, Q, B> {
  /** Empty string on routes without authentication. */
  userId: string;
  params: P;
  query: Q;
  body: B;
  res: Response;
}

/**
 * One route, described once: the same definition mounts the express handler (auth →
 * path ids → query → body → handler, whose use case checks the membership) and registers the OpenAPI path,
 * so the document cannot drift from what the server validates.
 */
export interface RouteDefinition<
  P extends ObjectSchema = ObjectSchema,
  Q extends ObjectSchema = ObjectSchema,
  B extends ObjectSchema = ObjectSchema,
> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI-style path under /api/v1, e.g. `/households/{hid}/freezers/{fid}`. */
  path: string;
  summary: string;
  /** Longer OpenAPI description, for behaviour a client must know beyond the summary. */
  description?: string;
  tags: string[];
  /** Default true: requires a bearer access token. */
  auth?: boolean;
  /**
   * Who the route's use case lets through (the use cases own the access policy); here it
   * only documents the 403 answer in OpenAPI.
   */
  access?: "member" | "owner" | "admin";
  params?: P;
  /** Absent: the route takes no query parameters and refuses any with 400. */
  query?: Q;
  /** Absent: the route takes no body and refuses one with fields (400); `{}` or nothing is fine. */
  body?: B;
  /** Success status, e.g. 200 or 201. */
  status: number;
  /**
   * Other success statuses a handler may answer with (as a {@link RouteAnswer}) and when, with
   * the same response body: 200 where a POST usually creates (201) but added to what existed.
   */
  alsoAnswers?: Record<number, string>;
  response: z.ZodType;
  /** Error statuses worth documenting besides the automatic ones (400, 401, 403, 429). */
  errors?: number[];
  handler(context: RouteContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown>;
}

/** A handler's answer with one of its route's {@link RouteDefinition.alsoAnswers} statuses. */
export class RouteAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** Keeps the generic parameters of one definition inferred while it goes into a list. */
export function defineRoute<P extends ObjectSchema, Q extends ObjectSchema, B extends ObjectSchema>(
  route: RouteDefinition<P, Q, B>,
): RouteDefinition {
  return route as unknown as RouteDefinition;
}

export interface MountContext {
  authenticate: RequestHandler;
  /**
   * Asked only when a household route's input is bad: someone the route would turn away gets
   * 403 instead of the input rules (as a guard before validation answers). A request with
   * valid input is checked once, by its use case.
   */
  access?: HouseholdAccess;
  /** Throws unless the user is an admin of the installation; asked like `access`, for admin routes. */
  requireAdmin?: (userId: string) => Promise<void>;
  /**
   * Leading part of `path` that the router's mount point already covers, e.g.
   * `/households/{hid}/items` for a router mounted there.
   */
  stripPrefix?: string;
}

/** What a route without query parameters or without a body accepts: nothing at all. */
export const NOTHING = z.object({}).strict();

/** The parts of a request to validate; `body: false` leaves a streamed body alone. */
export interface RequestSchemas {
  params?: ObjectSchema | undefined;
  query: ObjectSchema;
  body: ObjectSchema | false;
}

/**
 * Validates path ids, query and body into `res.locals`, in the documented order of checks:
 * path ids (400), then on a household route (`guard`) membership or ownership (403), then
 * query and body (400). The access check runs here only when the query or body is bad (a
 * valid request is checked once, by its use case); see {@link MountContext.access}.
 */
export function validateRequest(
  schemas: RequestSchemas,
  guard?: {
    access: HouseholdAccess | undefined;
    role: "member" | "owner" | "admin" | undefined;
    requireAdmin?: ((userId: string) => Promise<void>) | undefined;
  },
): RequestHandler {
  return async (req, res, next) => {
    // Malformed path ids are a 400 for anyone: they name nothing a caller could belong to.
    if (schemas.params) res.locals.params = parseWith(schemas.params, req.params, "params");
    try {
      // Unknown parameters and fields are bad input on every route, not silently ignored.
      res.locals.query = parseWith(schemas.query, req.query, "query");
      // Express leaves req.body undefined when no JSON body was sent: that is an empty object.
      if (schemas.body) res.locals.body = parseWith(schemas.body, req.body ?? {}, "body");
    } catch (invalid) {
      const householdId = req.params.hid;
      if (guard?.role === "admin") await guard.requireAdmin?.(currentUserId(res));
      else if (
        guard?.access &&
        guard.role &&
        typeof householdId === "string" &&
        idSchema.safeParse(householdId).success
      ) {
        const userId = currentUserId(res);
        if (guard.role === "owner") await guard.access.requireOwner(householdId, userId);
        else await guard.access.requireMember(householdId, userId);
      }
      throw invalid;
    }
    next();
  };
}

function expressPath(path: string, stripPrefix = ""): string {
  const relative = path.startsWith(stripPrefix) ? path.slice(stripPrefix.length) : path;
  return (relative || "/").replace(/\{(\w+)\}/g, ":$1");
}

export function mountRoutes(router: Router, routes: RouteDefinition[], context: MountContext): void {
  for (const route of routes) {
    const chain: RequestHandler[] = [];
    if (route.auth !== false) chain.push(context.authenticate);
    chain.push(
      validateRequest(
        { params: route.params, query: route.query ?? NOTHING, body: route.body ?? NOTHING },
        { access: context.access, role: route.access, requireAdmin: context.requireAdmin },
      ),
    );
    chain.push(async (_req, res) => {
      const result = await route.handler({
        userId: route.auth === false ? "" : currentUserId(res),
        params: res.locals.params,
        query: res.locals.query,
        body: res.locals.body,
        res,
      });
      if (result instanceof RouteAnswer) res.status(result.status).json(result.body);
      else res.status(route.status).json(result);
    });
    router[route.method](expressPath(route.path, context.stripPrefix), ...chain);
  }
}

const RETRY_AFTER = {
  "Retry-After": { description: "Seconds until the rate limit window resets", schema: { type: "integer" as const } },
};

function errorResponse(status: number) {
  return {
    description: STATUS_CODES[status] ?? "Error",
    ...(status === 429 ? { headers: RETRY_AFTER } : {}),
    content: { "application/json": { schema: errorResponseSchema } },
  };
}

export function registerRoutes(registry: OpenAPIRegistry, routes: RouteDefinition[]): void {
  for (const route of routes) {
    const statuses = new Set<number>([400, 429, 500, ...(route.errors ?? [])]);
    if (route.auth !== false) statuses.add(401);
    if (route.access) statuses.add(403);
    // A body over 100 kB, or one that is not JSON.
    if (route.body) for (const status of [413, 415]) statuses.add(status);
    const responses: Record<number, object> = {
      [route.status]: {
        description: STATUS_CODES[route.status] ?? "Success",
        content: { "application/json": { schema: route.response } },
      },
    };
    for (const [status, when] of Object.entries(route.alsoAnswers ?? {})) {
      responses[Number(status)] = { description: when, content: { "application/json": { schema: route.response } } };
    }
    for (const status of [...statuses].sort()) responses[status] = errorResponse(status);
    registry.registerPath({
      method: route.method,
      path: route.path,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      security: route.auth === false ? [] : [{ [BEARER_AUTH]: [] }],
      request: {
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { query: route.query } : {}),
        ...(route.body ? { body: { required: true, content: { "application/json": { schema: route.body } } } } : {}),
      },
      responses,
    });
  }
}
