import { expect } from "chai";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import { MemoryReminderRepository } from "../../../../src/adapters/persistence/memory-reminder-repository.js";
import { SendDueReminders } from "../../../../src/application/inventory/reminders/send-due-reminders.js";
import {
  GetReminderSettings,
  UpdateReminderSettings,
} from "../../../../src/application/inventory/reminders/reminder-settings.js";
import { HouseholdAccess } from "../../../../src/application/inventory/household-access.js";
import type { NotificationOptions } from "../../../../src/domain/automation/notification.js";
import { NotHouseholdOwnerError } from "../../../../src/domain/inventory/errors.js";
import { isReminderDue, REMINDER_CLAIM_MS } from "../../../../src/domain/inventory/reminder.js";
import { localTime } from "../../../../src/domain/shared/local-time.js";
import { MemoryWorld } from "../../../support/item-fixtures.js";
import { itemUseCases, rejection } from "../items/item-harness.js";

describe("reminder rules", () => {
  const settings = {
    householdId: "h",
    enabled: true,
    daysAhead: 3,
    timeOfDay: "18:00",
    channel: null,
    lastSentOn: null,
    updatedAt: new Date(),
  };

  it("reads the local date and time in TZ", () => {
    expect(localTime(new Date("2026-06-01T16:30:00Z"), "Europe/Berlin")).to.deep.equal({
      date: "2026-06-01",
      minutes: 18 * 60 + 30,
      seconds: 0,
    });
    expect(localTime(new Date("2026-06-01T23:30:00Z"), "Europe/Berlin")).to.deep.equal({
      date: "2026-06-02",
      minutes: 90,
      seconds: 0,
    });
  });

  it("is due once the time has passed on a day nothing was sent, and only when enabled", () => {
    expect(isReminderDue(settings, { date: "2026-06-01", minutes: 17 * 60 + 59 })).to.equal(false);
    expect(isReminderDue(settings, { date: "2026-06-01", minutes: 18 * 60 })).to.equal(true);
    expect(isReminderDue(settings, { date: "2026-06-01", minutes: 23 * 60 })).to.equal(true);
    expect(isReminderDue({ ...settings, lastSentOn: "2026-06-01" }, { date: "2026-06-01", minutes: 23 * 60 })).to.equal(
      false,
    );
    expect(isReminderDue({ ...settings, lastSentOn: "2026-05-31" }, { date: "2026-06-01", minutes: 19 * 60 })).to.equal(
      true,
    );
    expect(isReminderDue({ ...settings, enabled: false }, { date: "2026-06-01", minutes: 19 * 60 })).to.equal(false);
  });
});

describe("reminder settings", () => {
  it("members read the defaults; only the owner changes them", async () => {
    const uc = itemUseCases();
    const access = new HouseholdAccess(new MemoryWorld(uc.world));
    const reminders = new MemoryReminderRepository();
    const get = new GetReminderSettings({ reminders, clock: uc.clock }, access);
    const update = new UpdateReminderSettings({ reminders, clock: uc.clock }, access);
    const { householdId } = uc.world.home;
    expect(await get.execute({ householdId, userId: uc.world.users.bob.id })).to.include({
      enabled: false,
      daysAhead: 3,
      timeOfDay: "18:00",
      channel: null,
    });
    expect(
      await rejection(update.execute({ householdId, userId: uc.world.users.bob.id, enabled: true })),
    ).to.be.instanceOf(NotHouseholdOwnerError);
    const saved = await update.execute({
      householdId,
      userId: uc.world.users.alice.id,
      enabled: true,
      timeOfDay: "07:15",
    });
    expect(saved).to.include({ enabled: true, daysAhead: 3, timeOfDay: "07:15" });
    expect(await get.execute({ householdId, userId: uc.world.users.bob.id })).to.include({
      enabled: true,
      timeOfDay: "07:15",
    });
  });
});

describe("SendDueReminders", () => {
  async function setUp(send: (options: NotificationOptions) => Promise<unknown>) {
    const uc = itemUseCases();
    uc.clock.set(new Date("2026-06-01T10:00:00Z"));
    const reminders = new MemoryReminderRepository();
    const { householdId } = uc.world.home;
    await reminders.save({
      householdId,
      enabled: true,
      daysAhead: 3,
      timeOfDay: "18:00",
      channel: "freezer",
      updatedAt: uc.clock.now(),
    });
    const sent: NotificationOptions[] = [];
    const reminder = new SendDueReminders({
      reminders,
      items: uc.items,
      notifications: () => ({
        send: async (options: NotificationOptions) => {
          sent.push(options);
          return (await send(options)) as undefined;
        },
      }),
      clock: uc.clock,
      timeZone: "UTC",
      logger: new MemoryLogger(),
    });
    return { uc, reminders, reminder, sent, householdId };
  }

  it("sends one notification at the set time listing expired and soon-expiring items, once a day", async () => {
    const { uc, reminder, sent, householdId, reminders } = await setUp(async () => undefined);
    await uc.create({ name: "Old stew", expiresAt: new Date("2026-05-30T00:00:00Z") });
    await uc.create({ name: "Fish", expiresAt: new Date("2026-06-03T00:00:00Z") });
    await uc.create({ name: "Ice", expiresAt: new Date("2026-09-01T00:00:00Z") });
    expect(await reminder.execute()).to.deep.equal([]);
    uc.clock.set(new Date("2026-06-01T18:00:00Z"));
    expect(await reminder.execute()).to.deep.equal([householdId]);
    expect(await reminder.execute()).to.deep.equal([]);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.include({ channel: "freezer", title: "2 freezer items to use soon" });
    expect(sent[0]?.message).to.equal("Old stew (1): expired on 30 May\nFish (1): expires on 3 Jun");
    expect((await reminders.find(householdId))?.lastSentOn).to.equal("2026-06-01");
    uc.clock.set(new Date("2026-06-02T18:05:00Z"));
    expect(await reminder.execute()).to.deep.equal([householdId]);
  });

  it("sends nothing when nothing expires, and a second process sends nothing once the day is claimed", async () => {
    const { uc, reminder, sent, reminders, householdId } = await setUp(async () => undefined);
    uc.clock.set(new Date("2026-06-01T19:00:00Z"));
    expect(await reminder.execute()).to.deep.equal([]);
    await uc.create({ name: "Fish", expiresAt: new Date("2026-06-02T00:00:00Z") });
    expect(await reminders.claim(householdId, "2026-06-01", uc.clock.now(), 120_000)).to.equal(true);
    expect(await reminder.execute()).to.deep.equal([]);
    expect(sent).to.have.length(0);
  });

  it("a claim left by a crash before the send is retried after the claim lease, with the same key", async () => {
    const { uc, reminder, sent, reminders, householdId } = await setUp(async () => undefined);
    await uc.create({ name: "Fish", expiresAt: new Date("2026-06-02T00:00:00Z") });
    uc.clock.set(new Date("2026-06-01T18:00:00Z"));
    // A process claimed the day and died before sending.
    expect(await reminders.claim(householdId, "2026-06-01", uc.clock.now(), REMINDER_CLAIM_MS)).to.equal(true);
    uc.clock.set(new Date(uc.clock.now().getTime() + REMINDER_CLAIM_MS - 1));
    expect(await reminder.execute(), "not while the claim may still be sending").to.deep.equal([]);
    uc.clock.set(new Date(uc.clock.now().getTime() + 2));
    expect(await reminder.execute()).to.deep.equal([householdId]);
    expect(await reminder.execute()).to.deep.equal([]);
    expect(sent).to.have.length(1);
    expect(sent[0]?.idempotencyKey).to.equal(`hearth-reminder-2026-06-01-${householdId}`);
    expect((await reminders.find(householdId))?.lastSentOn).to.equal("2026-06-01");
  });

  it("a failed send (thrown or { ok: false }) releases the day so the next check retries", async () => {
    let answer: () => Promise<unknown> = async () => ({ ok: false, channel: "freezer", error: "down", code: "X" });
    const { uc, reminder, reminders, householdId } = await setUp(() => answer());
    await uc.create({ name: "Fish", expiresAt: new Date("2026-06-02T00:00:00Z") });
    uc.clock.set(new Date("2026-06-01T18:30:00Z"));
    expect(await reminder.execute()).to.deep.equal([]);
    expect((await reminders.find(householdId))?.lastSentOn).to.equal(null);
    answer = async () => {
      throw new Error("network");
    };
    expect(await reminder.execute()).to.deep.equal([]);
    answer = async () => ({ ok: true, channel: "freezer" });
    expect(await reminder.execute()).to.deep.equal([householdId]);
  });
});
