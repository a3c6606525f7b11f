import type { Knex } from "knex";
import type { RequestHandler, Router } from "express";
import {
  createHouseholdDataRouter,
  type HouseholdDataUseCases,
  registerHouseholdDataOpenApi,
} from "../adapters/http/inventory/household-data-routes.js";
import { KnexReminderRepository } from "../adapters/persistence/knex-reminder-repository.js";
import type { MemoryInventoryStore } from "../adapters/persistence/memory-inventory-store.js";
import { MemoryReminderRepository } from "../adapters/persistence/memory-reminder-repository.js";
import { GetReminderSettings, UpdateReminderSettings } from "../application/inventory/reminder-settings.js";
import { ExportHousehold } from "../application/inventory/export-household.js";
import { ImportHousehold } from "../application/inventory/import-household.js";
import { KnexHouseholdTransferStore } from "../adapters/persistence/knex-household-transfer-store.js";
import { MemoryHouseholdTransferStore } from "../adapters/persistence/memory-household-transfer-store.js";
import { MemoryItemRepository } from "../adapters/persistence/memory-item-repository.js";
import type { HouseholdTransferStore } from "../ports/household-transfer-store.js";
import type { ReminderRepository } from "../ports/reminder-repository.js";
import type { InventoryAreaContext } from "./inventory-api.js";
import type { OpenAPIRegistry } from "../adapters/http/inventory/openapi.js";

/** The household data area's HTTP contribution: reminders, export, import. */
export interface HouseholdDataArea {
  router: (context: { authenticate: RequestHandler; json: RequestHandler[] }) => Router;
  registerOpenApi: (registry: OpenAPIRegistry) => void;
}

function householdDataArea(
  context: InventoryAreaContext,
  reminders: ReminderRepository,
  transfers: HouseholdTransferStore,
): HouseholdDataArea {
  const useCases: HouseholdDataUseCases = {
    getReminderSettings: new GetReminderSettings(reminders, context.ports.clock, context.access),
    updateReminderSettings: new UpdateReminderSettings(reminders, context.ports.clock, context.access),
    exportHousehold: new ExportHousehold(transfers, context.access),
    importHousehold: new ImportHousehold(transfers, context.access, context.ports.ids, context.ports.clock),
  };
  return {
    router: (http) => createHouseholdDataRouter({ useCases, ...http }),
    registerOpenApi: registerHouseholdDataOpenApi,
  };
}

/** Over knex (PostgreSQL or PGlite), for buildInventoryApi. */
export function knexHouseholdDataArea(knex: Knex): (context: InventoryAreaContext) => HouseholdDataArea {
  return (context) => householdDataArea(context, new KnexReminderRepository(knex), new KnexHouseholdTransferStore(knex));
}

/** Over memory, for buildMemoryInventoryApi; household deletes drop the settings. */
export function memoryHouseholdDataArea(context: InventoryAreaContext & { store: MemoryInventoryStore }): HouseholdDataArea {
  const reminders = new MemoryReminderRepository();
  context.store.householdCascades.push((householdId) => reminders.deleteHousehold(householdId));
  // The items area plugs its repository into the store first; one of its own stands in without it.
  const items = context.store.items ?? new MemoryItemRepository(context.ports.users, context.ports.households);
  return householdDataArea(context, reminders, new MemoryHouseholdTransferStore(context.store, items));
}
