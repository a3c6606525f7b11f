import express, { type Router } from "express";
import type { GetReminderSettings, UpdateReminderSettings } from "../../../application/inventory/reminder-settings.js";
import { householdParams } from "./household-schemas.js";
import type { OpenAPIRegistry } from "./openapi.js";
import { remindersResponse, toRemindersResponse, updateRemindersBody } from "./reminder-schemas.js";
import { defineRoute, mountRoutes, type RouteDefinition, registerRoutes } from "./routes.js";

/** Where the app mounts the household data router (before its own JSON parser: imports stream). */
export const HOUSEHOLD_PATH = "/households/{hid}";

export interface HouseholdDataUseCases {
  getReminderSettings: GetReminderSettings;
  updateReminderSettings: UpdateReminderSettings;
}

/** Reminder settings, export and import of one household, described once for express and OpenAPI. */
export function householdDataRoutes(useCases: HouseholdDataUseCases): RouteDefinition[] {
  return [
    defineRoute({
      method: "get",
      path: `${HOUSEHOLD_PATH}/reminders`,
      summary: "The household's expiry-reminder settings (defaults until the owner saves some)",
      tags: ["Reminders"],
      params: householdParams,
      access: "member",
      status: 200,
      response: remindersResponse,
      handler: async ({ userId, params }) =>
        toRemindersResponse(await useCases.getReminderSettings.execute({ userId, householdId: params.hid })),
    }),
    defineRoute({
      method: "put",
      path: `${HOUSEHOLD_PATH}/reminders`,
      summary: "Change the expiry-reminder settings (owner): enabled, days ahead, local time of day, ntfy topic",
      tags: ["Reminders"],
      params: householdParams,
      access: "owner",
      body: updateRemindersBody,
      status: 200,
      response: remindersResponse,
      handler: async ({ userId, params, body }) =>
        toRemindersResponse(await useCases.updateReminderSettings.execute({ userId, householdId: params.hid, ...body })),
    }),
  ];
}

export interface HouseholdDataRouterDependencies {
  useCases: HouseholdDataUseCases;
  authenticate: express.RequestHandler;
  /** Parses JSON bodies (the app's own parser runs after this router). */
  json: express.RequestHandler[];
}

/** The router for mounting at /api/v1/households/:hid (with mergeParams). */
export function createHouseholdDataRouter(deps: HouseholdDataRouterDependencies): Router {
  const router = express.Router({ mergeParams: true });
  const routes = householdDataRoutes(deps.useCases);
  // The JSON parser runs for the reminder routes only: an import's body is streamed, not parsed.
  const reminders = express.Router({ mergeParams: true });
  mountRoutes(
    reminders,
    routes.filter((route) => route.path.endsWith("/reminders")),
    { authenticate: deps.authenticate, stripPrefix: `${HOUSEHOLD_PATH}/reminders` },
  );
  router.use("/reminders", ...deps.json, reminders);
  return router;
}

/** Adds the reminder, export and import paths to the OpenAPI document. */
export function registerHouseholdDataOpenApi(registry: OpenAPIRegistry): void {
  registry.register("ReminderSettings", remindersResponse);
  // Only the descriptions are read here; no handler runs during registration.
  registerRoutes(registry, householdDataRoutes({} as HouseholdDataUseCases));
}
