import type { MqttServiceApi } from "../../ports/mqtt-bus.js";
import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { type Clock, systemClock } from "../../ports/clock.js";
import type {
  CategorySummary,
  HouseholdName,
  HouseholdSummary,
  InventorySummaries,
} from "../../ports/inventory-summaries.js";
import type { Logger } from "../../ports/logger.js";
import { systemTimer, type Timer, type TimerHandle } from "../../ports/timer.js";
import type { InventoryEventSink } from "./outbox-dispatcher.js";

/** The summary's "expiring soon" window. */
export const SUMMARY_SOON_DAYS = 7;
/** Summaries are refreshed this often even without events: items expire as time passes. */
const REFRESH_EVERY_MS = 3_600_000;
/**
 * Rounds of summaries after events start at most this often. A summary counts every item of
 * its household: under a stream of writes, rounds back to back kept the database counting all
 * the time (on PostgreSQL they took a third off `hearth start`'s write throughput,
 * docs/performance.md). A sensor a second behind loses nothing; a write after a quiet second
 * still gets its summary at once.
 */
export const SUMMARY_ROUND_GAP_MS = 1_000;

export interface MqttInventoryPublisherOptions {
  mqtt: MqttServiceApi;
  summaries: InventorySummaries;
  logger: Logger;
  /** Topic prefix, e.g. `hearth/inventory`: events go to `<prefix>/<householdId>/events`. */
  prefix: string;
  /** Home Assistant discovery prefix (usually `homeassistant`), or null to publish no discovery config. */
  discoveryPrefix: string | null;
  clock?: Clock;
  timer?: Timer;
}

/** The summary as published (retained) under `<prefix>/<householdId>/summary`. */
export interface SummaryPayload {
  householdId: string;
  itemCount: number;
  expiringSoon: number;
  expired: number;
  expiringWithinDays: number;
  /** The figures per category (`categoryId` null: items without one), for dashboards per kind of food. */
  categories: CategorySummary[];
  updatedAt: string;
}

const SENSORS = [
  { key: "item_count", name: "Items", field: "itemCount", icon: "mdi:fridge-outline" },
  {
    key: "expiring_soon",
    name: `Expiring within ${SUMMARY_SOON_DAYS} days`,
    field: "expiringSoon",
    icon: "mdi:timer-sand",
  },
  { key: "expired", name: "Expired", field: "expired", icon: "mdi:alert-circle-outline" },
] as const;

/** Topic levels and HA object ids allow only these characters. */
function topicSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * Publishes delivered inventory events on MQTT, keeps a retained summary per household up to
 * date, and announces the summary's sensors to Home Assistant (MQTT discovery). Events carry
 * ids and names only: never an e-mail address or a token.
 */
export class MqttInventoryPublisher implements InventoryEventSink {
  readonly name = "mqtt";
  private readonly clock: Clock;
  private readonly timer: Timer;
  private readonly announced = new Set<string>();
  private refreshHandle: TimerHandle | null = null;
  private pending: Promise<void> = Promise.resolve();
  /** Households with events since their summary was last read, and whether a round for them is queued. */
  private readonly stale = new Set<string>();
  private staleRoundQueued = false;
  /** When the last round of summaries after events started (clock ms). */
  private lastRoundAt = Number.NEGATIVE_INFINITY;
  /** A round waiting out {@link SUMMARY_ROUND_GAP_MS}: its timer, and what settles once it has joined `pending`. */
  private deferred: { handle: TimerHandle; due: Promise<void>; start: () => void } | null = null;

  constructor(private readonly options: MqttInventoryPublisherOptions) {
    this.clock = options.clock ?? systemClock;
    this.timer = options.timer ?? systemTimer;
  }

  eventsTopic(householdId: string): string {
    return `${this.options.prefix}/${topicSafe(householdId)}/events`;
  }

  summaryTopic(householdId: string): string {
    return `${this.options.prefix}/${topicSafe(householdId)}/summary`;
  }

  /** Announces and publishes every household's summary, then refreshes them hourly. */
  async start(): Promise<void> {
    await this.refreshAll();
    this.scheduleRefresh();
  }

  /** Publishes a round still waiting out its gap at once, then waits for everything queued. */
  stop(): Promise<void> {
    if (this.refreshHandle) this.timer.clearTimeout(this.refreshHandle);
    this.refreshHandle = null;
    if (this.deferred) {
      this.timer.clearTimeout(this.deferred.handle);
      this.deferred.start();
    }
    return this.pending;
  }

  /**
   * Publishes the events, then (not awaited: the dispatcher still holds its claim, and on
   * PGlite the only connection) refreshes the touched households' summaries.
   */
  deliver(events: readonly InventoryEvent[]): void {
    for (const event of events) {
      this.options.mqtt.publish(this.eventsTopic(event.householdId), eventPayload(event), { qos: 1 });
      this.stale.add(event.householdId);
    }
    // One round at a time, each for every household gathered until it starts: a round per batch
    // fell behind a steady stream of writes (a summary reads all of a household's items), and
    // the queue of rounds, and the database time they took from requests, grew without bound.
    if (this.staleRoundQueued) return;
    this.staleRoundQueued = true;
    // At most the gap, should the wall clock step back (a board without a real-time clock
    // setting its time from NTP).
    const wait = Math.min(this.lastRoundAt + SUMMARY_ROUND_GAP_MS - this.clock.now().getTime(), SUMMARY_ROUND_GAP_MS);
    if (wait <= 0) {
      this.startRound();
      return;
    }
    let joined: () => void = () => {};
    const due = new Promise<void>((resolve) => {
      joined = resolve;
    });
    const start = () => {
      this.deferred = null;
      this.startRound();
      joined();
    };
    this.deferred = { handle: this.timer.setTimeout(start, wait), due, start };
  }

  /** Resolves once the summaries queued so far are published, a round waiting out its gap included (tests, shutdown). */
  async settled(): Promise<void> {
    if (this.deferred) await this.deferred.due;
    await this.pending;
  }

  private startRound(): void {
    this.pending = this.pending.then(() => {
      this.staleRoundQueued = false;
      this.lastRoundAt = this.clock.now().getTime();
      const households = [...this.stale];
      this.stale.clear();
      return this.refresh(households);
    });
  }

  private scheduleRefresh(): void {
    this.refreshHandle = this.timer.setTimeout(() => {
      this.pending = this.pending.then(() => this.refreshAll());
      this.scheduleRefresh();
    }, REFRESH_EVERY_MS);
  }

  private async refreshAll(): Promise<void> {
    try {
      const households = await this.options.summaries.listHouseholds();
      const current = new Set(households.map((household) => household.id));
      // Households deleted since the last refresh: their retained summary and sensors go.
      for (const id of [...this.announced]) if (!current.has(id)) this.forget(id);
      for (const household of households) await this.publishSummary(household);
    } catch (error) {
      this.options.logger.error("Could not publish the inventory summaries", { err: error });
    }
  }

  private async refresh(householdIds: string[]): Promise<void> {
    try {
      const names = new Map(
        (await this.options.summaries.listHouseholds(householdIds)).map((household) => [household.id, household]),
      );
      for (const id of householdIds) {
        const household = names.get(id);
        if (household) await this.publishSummary(household);
        else this.forget(id);
      }
    } catch (error) {
      this.options.logger.error("Could not publish an inventory summary", { err: error });
    }
  }

  private async publishSummary(household: HouseholdName): Promise<void> {
    const now = this.clock.now();
    const summary = await this.options.summaries.summarize(household.id, now, SUMMARY_SOON_DAYS);
    this.announce(household);
    this.options.mqtt.publish(this.summaryTopic(household.id), summaryPayload(summary, now), { qos: 1, retain: true });
  }

  private discoveryTopic(householdId: string, key: string): string {
    return `${this.options.discoveryPrefix}/sensor/hearth_${topicSafe(householdId)}/${key}/config`;
  }

  private announce(household: HouseholdName): void {
    if (this.options.discoveryPrefix === null || this.announced.has(household.id)) return;
    this.announced.add(household.id);
    const node = `hearth_${topicSafe(household.id)}`;
    for (const sensor of SENSORS) {
      this.options.mqtt.publish(
        this.discoveryTopic(household.id, sensor.key),
        {
          name: sensor.name,
          unique_id: `${node}_${sensor.key}`,
          state_topic: this.summaryTopic(household.id),
          value_template: `{{ value_json.${sensor.field} }}`,
          unit_of_measurement: "items",
          state_class: "measurement",
          icon: sensor.icon,
          device: {
            identifiers: [node],
            name: `Hearth freezers: ${household.name}`,
            manufacturer: "Hearth",
            model: "Freezer inventory",
          },
        },
        { qos: 1, retain: true },
      );
    }
  }

  /** A deleted household: its retained summary and sensors go (an empty retained message clears them). */
  private forget(householdId: string): void {
    this.options.mqtt.publish(this.summaryTopic(householdId), "", { qos: 1, retain: true });
    if (this.options.discoveryPrefix !== null) {
      for (const sensor of SENSORS)
        this.options.mqtt.publish(this.discoveryTopic(householdId, sensor.key), "", { qos: 1, retain: true });
    }
    this.announced.delete(householdId);
  }
}

function summaryPayload(summary: HouseholdSummary, now: Date): SummaryPayload & Record<string, unknown> {
  return {
    householdId: summary.householdId,
    itemCount: summary.itemCount,
    expiringSoon: summary.expiringSoon,
    expired: summary.expired,
    expiringWithinDays: SUMMARY_SOON_DAYS,
    categories: summary.byCategory,
    updatedAt: now.toISOString(),
  };
}

/** The event as JSON: the envelope and the type's data (which holds ids and names, never e-mails). */
export function eventPayload(event: InventoryEvent): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    householdId: event.householdId,
    occurredAt: event.occurredAt.toISOString(),
    actor: event.actor,
    data: event.data,
  };
}
