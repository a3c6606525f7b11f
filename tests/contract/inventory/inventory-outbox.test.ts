import { expect } from "chai";
import type { Knex } from "knex";
import { KnexInventoryOutbox, writeOutboxEvents } from "../../../src/adapters/persistence/knex-inventory-outbox.js";
import { KnexReminderRepository } from "../../../src/adapters/persistence/knex-reminder-repository.js";
import { MemoryInventoryOutbox } from "../../../src/adapters/persistence/memory-inventory-outbox.js";
import { MemoryReminderRepository } from "../../../src/adapters/persistence/memory-reminder-repository.js";
import { eventFactory, type InventoryEvent } from "../../../src/domain/inventory/inventory-event.js";
import type { InventoryOutbox } from "../../../src/ports/inventory-outbox.js";
import type { ReminderRepository } from "../../../src/ports/reminder-repository.js";
import { makeWorld, seedWorld } from "../../support/item-fixtures.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

let counter = 0;
function event(householdId: string): InventoryEvent {
  counter += 1;
  return eventFactory({
    householdId,
    userId: "someone",
    at: new Date("2026-06-01T10:00:00Z"),
    newId: () => `evt${counter}x${Date.now()}`,
  })("item.deleted", { itemId: `i${counter}`, name: `item ${counter}` });
}

interface OutboxFixture {
  outbox: InventoryOutbox;
  write(events: InventoryEvent[]): Promise<void>;
}

function describeOutboxContract(name: string, create: () => Promise<OutboxFixture>) {
  describe(`inventory outbox contract: ${name}`, () => {
    it("delivers what was written, oldest first, each event once, with its fields intact", async () => {
      const { outbox, write } = await create();
      const written = [event("ha"), event("hb"), event("ha")];
      await write(written);
      const seen: InventoryEvent[] = [];
      let total = 0;
      for (;;) {
        const count = await outbox.deliverNext(10, (events) => {
          seen.push(...events);
        });
        if (count === 0) break;
        total += count;
      }
      expect(total).to.equal(3);
      expect(seen.map((e) => e.id)).to.have.members(written.map((e) => e.id));
      const ofHa = seen.filter((e) => e.householdId === "ha").map((e) => e.id);
      expect(ofHa).to.deep.equal([written[0]?.id, written[2]?.id]);
      expect(seen.find((e) => e.id === written[1]?.id)).to.deep.equal(written[1]);
      expect(await outbox.pendingCount()).to.equal(0);
    });

    it("keeps events whose delivery threw, and prunes only delivered ones", async () => {
      const { outbox, write } = await create();
      await write([event("hc")]);
      const failed = await outbox
        .deliverNext(10, () => {
          throw new Error("sink down");
        })
        .catch((error: unknown) => error);
      expect(failed).to.be.instanceOf(Error);
      expect(await outbox.pendingCount()).to.equal(1);
      expect(await outbox.prune(new Date(Date.now() + 60_000))).to.equal(0);
      expect(await outbox.deliverNext(10, () => {})).to.equal(1);
      expect(await outbox.prune(new Date(Date.now() - 60_000))).to.equal(0);
      expect(await outbox.prune(new Date(Date.now() + 60_000))).to.be.at.least(1);
    });
  });
}

function describeReminderClaimContract(
  name: string,
  create: () => Promise<{ reminders: ReminderRepository; householdId: string }>,
) {
  describe(`reminder repository contract: ${name}`, () => {
    it("saves settings, lists enabled ones, lets one claim a day at a time, and retakes a stale claim", async () => {
      const { reminders, householdId } = await create();
      expect(await reminders.find(householdId)).to.equal(null);
      await reminders.save({
        householdId,
        enabled: true,
        daysAhead: 2,
        timeOfDay: "19:30",
        channel: "kitchen",
        updatedAt: new Date(),
      });
      expect(await reminders.find(householdId)).to.include({
        enabled: true,
        daysAhead: 2,
        timeOfDay: "19:30",
        channel: "kitchen",
        lastSentOn: null,
      });
      expect((await reminders.listEnabled()).map((row) => row.householdId)).to.include(householdId);
      const at = new Date("2026-06-01T18:00:00Z");
      const later = (ms: number) => new Date(at.getTime() + ms);
      const claims = await Promise.all([
        reminders.claim(householdId, "2026-06-01", at, 120_000),
        reminders.claim(householdId, "2026-06-01", at, 120_000),
      ]);
      expect(claims.filter(Boolean)).to.have.length(1);
      // Claimed is not sent: the day stays unsent until marked.
      expect((await reminders.find(householdId))?.lastSentOn).to.equal(null);
      expect(await reminders.claim(householdId, "2026-06-01", later(120_000), 120_000), "a live claim").to.equal(false);
      await reminders.release(householdId, "2026-06-01");
      expect(await reminders.claim(householdId, "2026-06-01", later(1000), 120_000), "after a release").to.equal(true);
      // A claim nobody marked or released (its process died) is taken over once older than the lease.
      expect(await reminders.claim(householdId, "2026-06-01", later(121_001), 120_000), "a stale claim").to.equal(true);
      await reminders.markSent(householdId, "2026-06-01");
      expect((await reminders.find(householdId))?.lastSentOn).to.equal("2026-06-01");
      expect(await reminders.claim(householdId, "2026-06-01", later(600_000), 120_000), "once sent").to.equal(false);
      expect(await reminders.claim(householdId, "2026-06-02", later(86_400_000), 120_000)).to.equal(true);
    });
  });
}

describeOutboxContract("memory", async () => {
  const outbox = new MemoryInventoryOutbox();
  return { outbox, write: async (events) => outbox.append(events) };
});
describeReminderClaimContract("memory", async () => ({
  reminders: new MemoryReminderRepository(),
  householdId: "h-memory",
}));

function knexSuites(label: string, database: () => { knex: Knex }) {
  describeOutboxContract(label, async () => {
    await database().knex("inventory_outbox").delete();
    return {
      outbox: new KnexInventoryOutbox(database().knex),
      write: (events) => database().knex.transaction((trx) => writeOutboxEvents(trx, events)),
    };
  });
  describeReminderClaimContract(label, async () => {
    const world = makeWorld();
    await seedWorld(database().knex, world);
    return { reminders: new KnexReminderRepository(database().knex), householdId: world.home.householdId };
  });
}

describe("knex on PGlite", () => {
  const database = useMigratedDatabase("pglite");
  knexSuites("knex + PGlite", database);
  // How Hearth runs it on PGlite: the only deliverer, holding no transaction while sinks run.
  describeOutboxContract("knex + PGlite, exclusive", async () => {
    await database().knex("inventory_outbox").delete();
    return {
      outbox: new KnexInventoryOutbox(database().knex, { exclusive: true }),
      write: (events) => database().knex.transaction((trx) => writeOutboxEvents(trx, events)),
    };
  });

  it("exclusive: the database answers other queries while the sinks run", async () => {
    const knex = database().knex;
    await knex("inventory_outbox").delete();
    await knex.transaction((trx) => writeOutboxEvents(trx, [event("home")]));
    const outbox = new KnexInventoryOutbox(knex, { exclusive: true });
    let seen = -1;
    await outbox.deliverNext(10, async () => {
      // With a claim transaction open this would wait for PGlite's only connection forever.
      const [row] = await knex("inventory_outbox").whereNull("delivered_at").count<{ count: number }[]>({ count: "*" });
      seen = Number(row?.count);
    });
    expect(seen).to.equal(1);
    expect(await outbox.deliverNext(10, async () => {})).to.equal(0);
  });
});

describe("knex on PostgreSQL", () => {
  const database = useMigratedDatabase({ acquired: "inventory outbox contract" });
  knexSuites("knex + acquired database", database);

  it("while one process delivers a household's events, another skips that household but takes the others", async function () {
    const knex = database().knex;
    if (knex.client.config.client !== "pg") {
      console.log(
        "      [inventory outbox] SKIPPED concurrent claims: PGlite has one connection (needs TEST_DATABASE_URL or Docker)",
      );
      this.skip();
    }
    await knex("inventory_outbox").delete();
    const busy = [event("busy"), event("busy")];
    const other = event("other");
    await knex.transaction((trx) => writeOutboxEvents(trx, [...busy, other]));
    const first = new KnexInventoryOutbox(knex);
    const second = new KnexInventoryOutbox(knex);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claimed: () => void = () => {};
    const claimedByFirst = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    const firstSaw: string[] = [];
    const firstRound = first.deliverNext(1, async (events) => {
      firstSaw.push(...events.map((e) => e.householdId));
      claimed();
      await held;
    });
    await claimedByFirst;
    const secondSaw: string[] = [];
    const count = await second.deliverNext(10, (events) => {
      secondSaw.push(...events.map((e) => e.householdId));
    });
    release();
    await firstRound;
    expect(firstSaw).to.deep.equal(["busy"]);
    expect(count).to.equal(1);
    expect(secondSaw).to.deep.equal(["other"]);
    // The first claim took one event of "busy": its second waits for the next round, still in order.
    const rest: string[] = [];
    await second.deliverNext(10, (events) => {
      rest.push(...events.map((e) => e.id));
    });
    expect(rest).to.deep.equal([busy[1]?.id]);
  });
});
