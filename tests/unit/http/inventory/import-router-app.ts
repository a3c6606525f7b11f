import express from "express";
import {
  createHouseholdDataRouter,
  type HouseholdDataRouterDependencies,
  type HouseholdDataUseCases,
} from "../../../../src/adapters/http/inventory/household-data-routes.js";
import { createErrorHandler } from "../../../../src/adapters/http/inventory/http-errors.js";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";

export const HOUSEHOLD = "household0000000000000001";

/**
 * The household data routes mounted as the app mounts them, over `useCases` (the import use
 * case a test stands in for), for a signed-in owner, with the app's error handler.
 */
export function importRouterApp(
  useCases: HouseholdDataUseCases,
  options: Pick<HouseholdDataRouterDependencies, "importMaxBytes" | "spoolDir"> = {},
): express.Express {
  const app = express();
  app.use(
    "/households/:hid",
    createHouseholdDataRouter({
      useCases,
      authenticate: (_req, res, next) => {
        res.locals.userId = "owner0000000000000000001";
        next();
      },
      json: [express.json()],
      ...options,
    }),
  );
  app.use(createErrorHandler(new MemoryLogger()));
  return app;
}
