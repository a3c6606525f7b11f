import { expect } from "chai";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import { MemoryReminderRepository } from "../../../../src/adapters/persistence/memory-reminder-repository.js";
import { HouseholdAccess } from "../../../../src/application/inventory/household-access.js";
import { ListExpiringItems } from "../../../../src/application/inventory/items/list-expiring-items.js";
import { SendDueReminders } from "../../../../src/application/inventory/reminders/send-due-reminders.js";
import type { NotificationOptions } from "../../../../src/domain/automation/notification.js";
import { endOfLocalDay } from "../../../../src/domain/shared/local-time.js";
import { MemoryWorld } from "../../../support/item-fixtures.js";
import { itemUseCases } from "./item-harness.js";

/** The harness's use cases with the home household in `timeZone`. */
function inZone(timeZone: string) {
  const uc = itemUseCases();
  const timeZones = { timeZoneOf: async () => timeZone };
  const access = new HouseholdAccess(new MemoryWorld(uc.world));
  const expiring = new ListExpiringItems({ items: uc.items, clock: uc.clock, timeZones }, access);
  const names = async (days: number) =>
    (
      await expiring.execute({
        householdId: uc.world.home.householdId,
        userId: uc.world.users.alice.id,
        days,
        page: 1,
        limit: 50,
      })
    ).data.map((item) => item.name);
  return { uc, timeZones, names };
}

describe("local days: the expiring list and reminders count the family's calendar days", () => {
  it("finds the end of a local day as the UTC midnight after it", () => {
    // 17:30 on 25 Nov in Los Angeles is 01:30 on 26 Nov in UTC.
    const at = new Date("2026-11-26T01:30:00Z");
    expect(endOfLocalDay(at, "America/Los_Angeles").toISOString()).to.equal("2026-11-26T00:00:00.000Z");
    expect(endOfLocalDay(at, "UTC").toISOString()).to.equal("2026-11-27T00:00:00.000Z");
    expect(endOfLocalDay(at, "America/Los_Angeles", 2).toISOString()).to.equal("2026-11-28T00:00:00.000Z");
  });

  it("in Los Angeles at 17:30, today's food is due today and tomorrow's is not in a 0-day list", async () => {
    const { uc, names } = inZone("America/Los_Angeles");
    uc.clock.set(new Date("2026-11-26T01:30:00Z"));
    await uc.create({ name: "Today", expiresAt: new Date("2026-11-25T00:00:00Z") });
    await uc.create({ name: "Tomorrow", expiresAt: new Date("2026-11-26T00:00:00Z") });
    expect(await names(0)).to.deep.equal(["Today"]);
    expect(await names(1)).to.deep.equal(["Today", "Tomorrow"]);
    const utc = inZone("UTC");
    utc.uc.clock.set(new Date("2026-11-26T01:30:00Z"));
    await utc.uc.create({ name: "Tomorrow", expiresAt: new Date("2026-11-26T00:00:00Z") });
    expect(await utc.names(0), "in UTC it is already the 26th").to.deep.equal(["Tomorrow"]);
  });

  it("in Sydney at 09:00, today's food is due today though UTC is still on yesterday", async () => {
    const { uc, names } = inZone("Australia/Sydney");
    uc.clock.set(new Date("2026-11-24T22:00:00Z"));
    await uc.create({ name: "Today", expiresAt: new Date("2026-11-25T00:00:00Z") });
    expect(await names(0)).to.deep.equal(["Today"]);
    const utc = inZone("UTC");
    utc.uc.clock.set(new Date("2026-11-24T22:00:00Z"));
    await utc.uc.create({ name: "Today", expiresAt: new Date("2026-11-25T00:00:00Z") });
    expect(await utc.names(0)).to.deep.equal([]);
  });

  it("sends a Los Angeles household's reminder at 18:00 there, calling today's food due, not expired", async () => {
    const { uc, timeZones } = inZone("America/Los_Angeles");
    const reminders = new MemoryReminderRepository();
    const { householdId } = uc.world.home;
    uc.clock.set(new Date("2026-11-25T20:00:00Z"));
    await reminders.save({
      householdId,
      enabled: true,
      daysAhead: 0,
      timeOfDay: "18:00",
      channel: null,
      updatedAt: uc.clock.now(),
    });
    const sent: NotificationOptions[] = [];
    const reminder = new SendDueReminders({
      reminders,
      items: uc.items,
      notifications: () => ({
        send: async (options: NotificationOptions) => {
          sent.push(options);
          return undefined;
        },
      }),
      clock: uc.clock,
      timeZone: "UTC",
      timeZones,
      logger: new MemoryLogger(),
    });
    await uc.create({ name: "Stew", expiresAt: new Date("2026-11-25T00:00:00Z") });
    await uc.create({ name: "Peas", expiresAt: new Date("2026-11-26T00:00:00Z") });
    // 18:00 UTC is only 10:00 in Los Angeles.
    uc.clock.set(new Date("2026-11-25T18:00:00Z"));
    expect(await reminder.execute()).to.deep.equal([]);
    uc.clock.set(new Date("2026-11-26T02:00:00Z"));
    expect(await reminder.execute()).to.deep.equal([householdId]);
    expect(sent[0]).to.include({ title: "1 freezer item to use soon", message: "Stew (1): expires on 25 Nov" });
    expect((await reminders.find(householdId))?.lastSentOn).to.equal("2026-11-25");
  });
});
