import { expect } from "chai";
import { MqttInventoryPublisher, SUMMARY_ROUND_GAP_MS } from "../../../src/adapters/events/mqtt-inventory-publisher.js";
import { OutboxDispatcher } from "../../../src/adapters/events/outbox-dispatcher.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { MemoryInventoryOutbox } from "../../../src/adapters/persistence/memory-inventory-outbox.js";
import { InventoryEventBus } from "../../../src/application/automation/inventory-event-bus.js";
import { handlerFor, type WiringContext } from "../../../src/application/automation/trigger-handlers.js";
import type { InventoryTrigger, TriggerContext } from "../../../src/domain/automation/trigger.js";
import { eventFactory, type InventoryEvent } from "../../../src/domain/inventory/inventory-event.js";
import type { Clock } from "../../../src/ports/clock.js";
import type { InventorySummaries } from "../../../src/ports/inventory-summaries.js";
import { FakeTime } from "../../support/engine-fakes.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";

let counter = 0;
function itemCreated(householdId = "h1", name = "Peas"): InventoryEvent {
  const event = eventFactory({
    householdId,
    userId: "u1",
    at: new Date("2026-06-01T10:00:00Z"),
    newId: () => `e${++counter}`,
  });
  return event("item.created", {
    item: {
      id: `i${counter}`,
      name,
      quantity: 1,
      unit: "piece",
      categoryId: null,
      freezerId: "f",
      compartmentId: "c",
      expiresAt: null,
      archived: false,
      barcode: null,
    },
  });
}

describe("inventory trigger", () => {
  const handler = handlerFor({ type: "inventory" } as InventoryTrigger)!;
  const wire = (trigger: InventoryTrigger) => {
    const bus = new InventoryEventBus(new MemoryLogger());
    const fired: TriggerContext[] = [];
    const logger = new MemoryLogger();
    const unwire = handler.wire(trigger, {
      fire: (context: TriggerContext) => fired.push(context),
      logger,
      inventoryEvents: bus,
    } as unknown as WiringContext);
    return { bus, fired, unwire, logger };
  };

  it("validates event types, household and filter, naming every problem", () => {
    expect(handler.validate({ type: "inventory" }, {} as never)).to.equal(null);
    expect(handler.validate({ type: "inventory", events: ["item.created", "member.joined"] }, {} as never)).to.equal(
      null,
    );
    expect(handler.validate({ type: "inventory", events: [] } as InventoryTrigger, {} as never)).to.match(
      /non-empty array/,
    );
    expect(
      handler.validate({ type: "inventory", events: ["item.eaten"] } as unknown as InventoryTrigger, {} as never),
    ).to.match(/unknown inventory event types: item\.eaten/);
    expect(handler.validate({ type: "inventory", householdId: "" }, {} as never)).to.match(/householdId/);
    expect(handler.validate({ type: "inventory", filter: "yes" } as unknown as InventoryTrigger, {} as never)).to.match(
      /filter/,
    );
  });

  it("fires with the event when type, household and filter match, and stops after unwiring", () => {
    const { bus, fired, unwire } = wire({
      type: "inventory",
      events: ["item.created"],
      householdId: "h1",
      filter: (event) => event.type === "item.created" && event.data.item.name !== "Ice",
    });
    const wanted = itemCreated("h1", "Peas");
    bus.publish([wanted, itemCreated("h2", "Peas"), itemCreated("h1", "Ice")]);
    expect(fired).to.deep.equal([{ type: "inventory", event: wanted }]);
    unwire();
    bus.publish([itemCreated("h1", "Peas")]);
    expect(fired).to.have.length(1);
  });

  it("a throwing filter counts as no match and is logged", () => {
    const { bus, fired, logger } = wire({
      type: "inventory",
      filter: () => {
        throw new Error("bug");
      },
    });
    bus.publish([itemCreated()]);
    expect(fired).to.deep.equal([]);
    expect(logger.entries.some((entry) => entry.level === "error")).to.equal(true);
  });

  it("warns and never fires when the inventory does not run in the process", () => {
    const logger = new MemoryLogger();
    handler.wire({ type: "inventory" }, { fire: () => {}, logger, inventoryEvents: null } as unknown as WiringContext);
    expect(logger.entries.map((entry) => entry.msg)).to.include(
      "The inventory is not running in this process; this inventory trigger can never fire",
    );
  });
});

describe("OutboxDispatcher", () => {
  function dispatcher(
    outbox: MemoryInventoryOutbox,
    deliver: (events: readonly InventoryEvent[]) => void | Promise<void>,
  ) {
    const time = new FakeTime("2026-06-01T10:00:00Z");
    const logger = new MemoryLogger();
    const instance = new OutboxDispatcher({
      outbox,
      sinks: [{ name: "test", deliver }],
      logger,
      pollIntervalMs: 500,
      retentionMs: 86_400_000,
      clock: time,
      timer: time,
    });
    return { instance, time, logger };
  }

  it("delivers written events in order, once, and marks them delivered", async () => {
    const outbox = new MemoryInventoryOutbox();
    const seen: string[] = [];
    const { instance } = dispatcher(outbox, (events) => {
      seen.push(...events.map((event) => event.id));
    });
    const events = [itemCreated(), itemCreated(), itemCreated()];
    outbox.append(events);
    expect(await instance.drain()).to.equal(3);
    expect(await instance.drain()).to.equal(0);
    expect(seen).to.deep.equal(events.map((event) => event.id));
    expect(await outbox.pendingCount()).to.equal(0);
  });

  it("a failing sink leaves the events for the next round (at least once)", async () => {
    const outbox = new MemoryInventoryOutbox();
    let fail = true;
    const seen: string[] = [];
    const { instance, logger } = dispatcher(outbox, (events) => {
      if (fail) throw new Error("broker gone");
      seen.push(...events.map((event) => event.id));
    });
    outbox.append([itemCreated()]);
    expect(await instance.drain()).to.equal(0);
    expect(await outbox.pendingCount()).to.equal(1);
    expect(logger.entries.some((entry) => entry.level === "error")).to.equal(true);
    fail = false;
    expect(await instance.drain()).to.equal(1);
    expect(seen).to.have.length(1);
  });

  it("polls on its interval after start, and stops polling on stop", async () => {
    const outbox = new MemoryInventoryOutbox();
    const seen: string[] = [];
    const { instance, time } = dispatcher(outbox, (events) => {
      seen.push(...events.map((event) => event.id));
    });
    instance.start();
    await new Promise((resolve) => setImmediate(resolve));
    outbox.append([itemCreated()]);
    time.advance(500);
    for (let tries = 0; tries < 50 && seen.length === 0; tries++) await new Promise((resolve) => setImmediate(resolve));
    expect(seen).to.have.length(1);
    await instance.stop();
    outbox.append([itemCreated()]);
    time.advance(5000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).to.have.length(1);
    expect(time.pendingCount).to.equal(0);
  });

  it("prunes delivered events older than the retention", async () => {
    const outbox = new MemoryInventoryOutbox();
    outbox.append([itemCreated()]);
    const { instance } = dispatcher(outbox, () => {});
    await instance.drain();
    expect(await outbox.prune(new Date(Date.now() + 1000))).to.equal(1);
    expect(outbox.all()).to.deep.equal([]);
  });
});

describe("MqttInventoryPublisher", () => {
  const summaries: InventorySummaries = {
    listHouseholds: async () => [{ id: "h1", name: "Home" }],
    summarize: async (householdId) => ({
      householdId,
      itemCount: 4,
      expiringSoon: 1,
      expired: 2,
      byCategory: [{ categoryId: "k1", key: "meat", name: "Meat", itemCount: 4, expiringSoon: 1, expired: 2 }],
    }),
    countsByFreezer: async () => [],
  };

  function publisher(discoveryPrefix: string | null) {
    const mqtt = new FakeMqttService();
    const time = new FakeTime("2026-06-01T10:00:00Z");
    const instance = new MqttInventoryPublisher({
      mqtt,
      summaries,
      logger: new MemoryLogger(),
      prefix: "hearth/inventory",
      discoveryPrefix,
      clock: time,
      timer: time,
    });
    return { mqtt, instance };
  }

  it("publishes events, then the household's retained summary and its Home Assistant sensors once", async () => {
    const { mqtt, instance } = publisher("homeassistant");
    const event = itemCreated("h1");
    instance.deliver([event]);
    instance.deliver([itemCreated("h1")]);
    await instance.settled();
    const topics = mqtt.published.map((message) => message.topic);
    expect(topics.filter((topic) => topic === "hearth/inventory/h1/events")).to.have.length(2);
    expect(topics.filter((topic) => topic.startsWith("homeassistant/sensor/hearth_h1/"))).to.deep.equal([
      "homeassistant/sensor/hearth_h1/item_count/config",
      "homeassistant/sensor/hearth_h1/expiring_soon/config",
      "homeassistant/sensor/hearth_h1/expired/config",
    ]);
    const summary = mqtt.published.filter((message) => message.topic === "hearth/inventory/h1/summary").at(-1);
    expect(summary?.options).to.deep.include({ retain: true });
    expect(summary?.payload).to.deep.include({
      householdId: "h1",
      itemCount: 4,
      expiringSoon: 1,
      expired: 2,
      expiringWithinDays: 7,
    });
    const first = mqtt.published.find((message) => message.topic === "hearth/inventory/h1/events");
    expect(first?.payload).to.deep.include({
      id: event.id,
      type: "item.created",
      occurredAt: "2026-06-01T10:00:00.000Z",
    });
    await instance.stop();
  });

  it("publishes no discovery config when it is switched off", async () => {
    const { mqtt, instance } = publisher(null);
    instance.deliver([itemCreated("h1")]);
    await instance.settled();
    expect(mqtt.published.some((message) => message.topic.includes("/config"))).to.equal(false);
    await instance.stop();
  });

  it("clears the retained summary and sensors of a household that no longer exists", async () => {
    const { mqtt, instance } = publisher("homeassistant");
    instance.deliver([itemCreated("gone")]);
    await instance.settled();
    const cleared = mqtt.published.filter((message) => message.payload === "" && message.options?.retain);
    expect(cleared.map((message) => message.topic)).to.include("hearth/inventory/gone/summary");
    await instance.stop();
  });
});

/**
 * A publisher on fake time whose summaries record the households they read (and the names asked
 * for); with `firstHeld`, the first summary waits for it (a large household on a busy database).
 */
function countingPublisher(firstHeld?: Promise<void>, clock?: Clock) {
  const summarized: string[] = [];
  const asked: (readonly string[] | undefined)[] = [];
  const mqtt = new FakeMqttService();
  const time = new FakeTime("2026-06-01T10:00:00Z");
  const publisher = new MqttInventoryPublisher({
    mqtt,
    summaries: {
      listHouseholds: async (ids) => {
        asked.push(ids);
        return (ids ?? []).map((id) => ({ id, name: id }));
      },
      summarize: async (householdId) => {
        summarized.push(householdId);
        if (summarized.length === 1 && firstHeld) await firstHeld;
        return { householdId, itemCount: summarized.length, expiringSoon: 0, expired: 0, byCategory: [] };
      },
      countsByFreezer: async () => [],
    },
    logger: new MemoryLogger(),
    prefix: "p",
    discoveryPrefix: null,
    clock: clock ?? time,
    timer: time,
  });
  return { summarized, asked, mqtt, time, publisher };
}

describe("MqttInventoryPublisher under a stream of writes", () => {
  it("reads each touched household's summary once per round, however many batches touched it meanwhile", async () => {
    let release: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { summarized, asked, mqtt, time, publisher } = countingPublisher(firstHeld);
    publisher.deliver([itemCreated("h1")]);
    for (let tries = 0; tries < 50 && summarized.length === 0; tries++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(summarized).to.deep.equal(["h1"]);
    // Batches that arrive while that summary is read wait for one more round, not one each.
    for (let batch = 0; batch < 20; batch++) publisher.deliver([itemCreated("h1"), itemCreated("h2")]);
    release();
    time.advance(SUMMARY_ROUND_GAP_MS);
    await publisher.settled();
    expect(summarized).to.deep.equal(["h1", "h1", "h2"]);
    // Only the touched households' names are read, never the list of every household.
    expect(asked).to.deep.equal([["h1"], ["h1", "h2"]]);
    expect(mqtt.published.filter((message) => message.topic.endsWith("/events"))).to.have.length(41);
    const last = mqtt.published.filter((message) => message.topic === "p/h1/summary").at(-1);
    expect(last?.payload).to.deep.include({ itemCount: 2 });
    await publisher.stop();
  });
});

describe("MqttInventoryPublisher between rounds", () => {
  const flush = async () => {
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  it("starts the next round no sooner than the gap after the last one began, events going out meanwhile", async () => {
    const { summarized, mqtt, time, publisher } = countingPublisher();
    publisher.deliver([itemCreated("h1")]);
    await publisher.settled();
    expect(summarized).to.deep.equal(["h1"]);
    time.advance(300);
    publisher.deliver([itemCreated("h1")]);
    publisher.deliver([itemCreated("h2")]);
    await flush();
    // The events are out at once; the summaries wait for one round at the end of the gap.
    expect(mqtt.published.filter((message) => message.topic.endsWith("/events"))).to.have.length(3);
    expect(summarized).to.deep.equal(["h1"]);
    expect(time.pendingCount).to.equal(1);
    time.advance(SUMMARY_ROUND_GAP_MS - 301);
    await flush();
    expect(summarized).to.deep.equal(["h1"]);
    time.advance(1);
    await publisher.settled();
    expect(summarized).to.deep.equal(["h1", "h1", "h2"]);
    // After a quiet gap, a write's summary goes out without waiting.
    time.advance(SUMMARY_ROUND_GAP_MS);
    publisher.deliver([itemCreated("h2")]);
    await flush();
    expect(summarized).to.deep.equal(["h1", "h1", "h2", "h2"]);
    expect(time.pendingCount).to.equal(0);
    await publisher.stop();
  });

  it("waits no longer than the gap when the wall clock steps back", async () => {
    let now = Date.parse("2026-06-01T10:00:00Z");
    const { summarized, time, publisher } = countingPublisher(undefined, { now: () => new Date(now) });
    publisher.deliver([itemCreated("h1")]);
    await publisher.settled();
    now -= 3_600_000;
    publisher.deliver([itemCreated("h1")]);
    time.advance(SUMMARY_ROUND_GAP_MS);
    await publisher.settled();
    expect(summarized).to.deep.equal(["h1", "h1"]);
    await publisher.stop();
  });

  it("publishes a round still waiting out its gap when it stops, leaving no timer", async () => {
    const { summarized, mqtt, time, publisher } = countingPublisher();
    publisher.deliver([itemCreated("h1")]);
    await publisher.settled();
    publisher.deliver([itemCreated("h2")]);
    await publisher.stop();
    expect(summarized).to.deep.equal(["h1", "h2"]);
    expect(mqtt.published.filter((message) => message.topic === "p/h2/summary")).to.have.length(1);
    expect(time.pendingCount).to.equal(0);
  });
});

describe("MqttInventoryPublisher refresh", () => {
  it("publishes every household's summary at start and hourly, clearing households deleted meanwhile", async () => {
    let households = [
      { id: "h1", name: "Home" },
      { id: "h2", name: "Cabin" },
    ];
    const mqtt = new FakeMqttService();
    const time = new FakeTime("2026-06-01T10:00:00Z");
    const publisher = new MqttInventoryPublisher({
      mqtt,
      summaries: {
        listHouseholds: async () => households,
        summarize: async (householdId) => ({ householdId, itemCount: 1, expiringSoon: 0, expired: 0, byCategory: [] }),
        countsByFreezer: async () => [],
      },
      logger: new MemoryLogger(),
      prefix: "p",
      discoveryPrefix: "ha",
      clock: time,
      timer: time,
    });
    await publisher.start();
    expect(
      mqtt.published.filter((message) => message.topic.endsWith("/summary")).map((message) => message.topic),
    ).to.deep.equal(["p/h1/summary", "p/h2/summary"]);
    households = [{ id: "h1", name: "Home" }];
    mqtt.published.length = 0;
    time.advance(3_600_000);
    await publisher.settled();
    expect(
      mqtt.published.filter((message) => message.payload === "").map((message) => message.topic),
    ).to.include.members(["p/h2/summary", "ha/sensor/hearth_h2/item_count/config"]);
    expect(mqtt.published.some((message) => message.topic === "p/h1/summary" && message.payload !== "")).to.equal(true);
    await publisher.stop();
    expect(time.pendingCount).to.equal(0);
  });
});
