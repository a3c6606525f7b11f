import { MqttInventoryPublisher } from "../adapters/events/mqtt-inventory-publisher.js";
import { type InventoryEventSink, OutboxDispatcher } from "../adapters/events/outbox-dispatcher.js";
import { Cuid2IdGenerator } from "../adapters/ids/cuid2-id-generator.js";
import type { Database } from "../adapters/persistence/database.js";
import { KnexCategoryRepository } from "../adapters/persistence/knex-category-repository.js";
import { KnexFreezerRepository } from "../adapters/persistence/knex-freezer-repository.js";
import { KnexInventoryOutbox } from "../adapters/persistence/knex-inventory-outbox.js";
import { KnexInventorySummaries } from "../adapters/persistence/knex-inventory-summaries.js";
import { KnexItemRepository } from "../adapters/persistence/knex-item-repository.js";
import { KnexReminderRepository } from "../adapters/persistence/knex-reminder-repository.js";
import { KnexUserRepository } from "../adapters/persistence/knex-user-repository.js";
import {
  AutomationInventoryService,
  automationMemberships,
} from "../application/inventory/automation-inventory-service.js";
import { householdTimeZones } from "../application/inventory/households/household-time-zones.js";
import { HouseholdAccess } from "../application/inventory/household-access.js";
import { KnexHouseholdRepository } from "../adapters/persistence/knex-household-repository.js";
import { placementsFromFreezers } from "../application/inventory/items/item-placement.js";
import { createItemUseCases } from "../application/inventory/items/item-use-cases.js";
import { ReminderSchedule } from "../application/inventory/reminders/reminder-schedule.js";
import { SendDueReminders } from "../application/inventory/reminders/send-due-reminders.js";
import { type Clock, systemClock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import { systemTimer, type Timer } from "../ports/timer.js";
import { KnexPushRepository } from "../adapters/persistence/knex-push-repository.js";
import type { VapidKeys } from "../adapters/security/vapid-keys.js";
import { WebPushSender } from "../adapters/services/web-push/web-push-sender.js";
import { SendDuePushReminders } from "../application/inventory/push/send-due-push-reminders.js";
import type { Config } from "./config.js";
import type { Engine } from "./create-engine.js";
import { KnexShoppingListRepository } from "../adapters/persistence/knex-shopping-list-repository.js";
import { createShoppingListUseCases } from "../application/inventory/shopping-list/shopping-list-use-cases.js";

/** The service key automations use: `this.require<InventoryService>("inventory")`. */
export const INVENTORY_SERVICE_KEY = "inventory";

export interface InventoryLinkOptions {
  config: Config;
  database: Database;
  engine: Engine;
  logger: Logger;
  clock?: Clock | undefined;
  timer?: Timer | undefined;
  /** The Web Push keys (buildInventoryApi's); absent: no push reminders are sent. */
  vapidKeys?: VapidKeys | undefined;
  /** A certificate to trust for push services (tests with a local push service). */
  pushCa?: string | undefined;
}

/** What joins the inventory and the engine in one process; see {@link linkInventory}. */
export interface InventoryLink {
  readonly dispatcher: OutboxDispatcher;
  readonly publisher: MqttInventoryPublisher | null;
  readonly reminders: ReminderSchedule;
  /** The members' Web Push reminders; null without VAPID keys. */
  readonly pushReminders: ReminderSchedule | null;
  /** Starts delivery, the MQTT summary and the reminder checks; call after engine.start(). */
  start(): Promise<void>;
  /** Stops them again, before the engine stops. */
  stop(): Promise<void>;
}

/**
 * Joins the inventory to the engine: registers the `inventory` service (before the engine
 * starts, so automations can require it), and builds the outbox dispatcher feeding
 * `inventory` triggers and MQTT, and the daily expiry reminders sent through the engine's
 * notifications service.
 */
export function linkInventory(options: InventoryLinkOptions): InventoryLink {
  const { config, engine } = options;
  const knex = options.database.knex;
  const clock = options.clock ?? systemClock;
  const timer = options.timer ?? systemTimer;
  const logger = options.logger.child({ module: "inventory-events" });

  const items = new KnexItemRepository(knex);
  const timeZones = householdTimeZones(new KnexHouseholdRepository(knex));
  const summaries = new KnexInventorySummaries(knex);
  const useCases = createItemUseCases(
    {
      items,
      placements: placementsFromFreezers(new KnexFreezerRepository(knex), new KnexCategoryRepository(knex)),
      ids: new Cuid2IdGenerator(),
      clock,
      timeZones,
    },
    new HouseholdAccess(automationMemberships(new KnexHouseholdRepository(knex))),
  );
  const shoppingList = createShoppingListUseCases(
    {
      shoppingList: new KnexShoppingListRepository(knex),
      items,
      placements: placementsFromFreezers(new KnexFreezerRepository(knex), new KnexCategoryRepository(knex)),
      ids: new Cuid2IdGenerator(),
      clock,
    },
    new HouseholdAccess(automationMemberships(new KnexHouseholdRepository(knex))),
  );
  engine.services.register(
    INVENTORY_SERVICE_KEY,
    new AutomationInventoryService({
      useCases,
      items,
      summaries,
      users: new KnexUserRepository(knex),
      clock,
      shoppingList,
    }),
  );

  const publisher = config.INVENTORY_MQTT_ENABLED
    ? new MqttInventoryPublisher({
        mqtt: engine.mqtt,
        summaries,
        logger: logger.child({ module: "inventory-mqtt" }),
        prefix: config.INVENTORY_MQTT_PREFIX,
        discoveryPrefix: config.HA_DISCOVERY_ENABLED ? config.HA_DISCOVERY_PREFIX : null,
        clock,
        timer,
      })
    : null;
  const engineSink: InventoryEventSink = {
    name: "engine",
    deliver: (events) => engine.inventoryEvents.publish(events),
  };
  const dispatcher = new OutboxDispatcher({
    outbox: new KnexInventoryOutbox(knex, { exclusive: options.database.kind === "pglite" }),
    sinks: publisher ? [engineSink, publisher] : [engineSink],
    logger,
    pollIntervalMs: config.INVENTORY_EVENTS_POLL_MS,
    retentionMs: config.INVENTORY_EVENTS_RETENTION * 1000,
    clock,
    timer,
  });
  const reminders = new ReminderSchedule(
    new SendDueReminders({
      reminders: new KnexReminderRepository(knex),
      items,
      notifications: () => engine.notifications,
      clock,
      timeZone: config.TZ,
      timeZones,
      logger: options.logger.child({ module: "reminders" }),
    }),
    timer,
    config.REMINDER_CHECK_INTERVAL * 1000,
    options.logger.child({ module: "reminders" }),
  );

  // Like the household's reminder, every process checks; the claim in the database sends each once.
  const pushReminders = options.vapidKeys
    ? new ReminderSchedule(
        new SendDuePushReminders({
          push: new KnexPushRepository(knex),
          items,
          sender: new WebPushSender({
            keys: options.vapidKeys,
            subject: config.VAPID_SUBJECT,
            allowPrivate: config.PUSH_ALLOW_PRIVATE_ENDPOINTS,
            ...(options.pushCa ? { ca: options.pushCa } : {}),
          }),
          clock,
          timeZone: config.TZ,
          timeZones,
          logger: options.logger.child({ module: "push-reminders" }),
        }),
        timer,
        config.REMINDER_CHECK_INTERVAL * 1000,
        options.logger.child({ module: "push-reminders" }),
      )
    : null;

  return {
    dispatcher,
    publisher,
    reminders,
    pushReminders,
    async start() {
      await publisher?.start();
      dispatcher.start();
      reminders.start();
      pushReminders?.start();
    },
    async stop() {
      await pushReminders?.stop();
      await reminders.stop();
      await dispatcher.stop();
      await publisher?.stop();
    },
  };
}
