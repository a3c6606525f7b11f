import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Adds `.openapi()` to zod schemas; idempotent, so every schema module may import this file.
extendZodWithOpenApi(z);

export { OpenAPIRegistry };

export const errorResponseSchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi("Error", { description: "Every error response" });

/** OpenAPI responses for error statuses, each with the common error body. */
export function errorResponses(statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: String(status), content: { "application/json": { schema: errorResponseSchema } } },
    ]),
  );
}

export const messageResponseSchema = z.object({ message: z.string() }).openapi("Message");

export const healthResponseSchema = z
  .object({ status: z.enum(["ok", "error"]), checks: z.object({ database: z.enum(["up", "down"]) }) })
  .openapi("Health");

export const BEARER_AUTH = "bearerAuth";

/** A registry with the shared components (error body, bearer auth) already in it. */
export function createOpenApiRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.register("Error", errorResponseSchema);
  registry.register("Message", messageResponseSchema);
  registry.registerComponent("securitySchemes", BEARER_AUTH, { type: "http", scheme: "bearer", bearerFormat: "JWT" });
  registry.registerPath({
    method: "get",
    path: "/health",
    summary: "Liveness and database check (not rate limited)",
    tags: ["Health"],
    responses: {
      200: { description: "Up", content: { "application/json": { schema: healthResponseSchema } } },
      503: { description: "Database down", content: { "application/json": { schema: healthResponseSchema } } },
    },
  });
  return registry;
}

export function generateOpenApiDocument(registry: OpenAPIRegistry, version: string): object {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Hearth freezer inventory API",
      version,
      description:
        "Households, members, invites, freezers, compartments and items. Errors share one body: " +
        "{statusCode, error, message, details?}. Every route is rate limited (RateLimit headers, 429 with Retry-After).",
    },
    servers: [{ url: "/api/v1" }],
  });
}
