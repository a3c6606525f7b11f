import { expect } from "chai";
import { MemoryLogger } from "../../../../src/adapters/logging/memory-logger.js";
import { MemoryInventoryStore } from "../../../../src/adapters/persistence/memory-inventory-store.js";
import { ScryptPasswordHasher } from "../../../../src/adapters/security/scrypt-password-hasher.js";
import { householdTimeZones } from "../../../../src/application/inventory/households/household-time-zones.js";
import { SendDuePushReminders } from "../../../../src/application/inventory/push/send-due-push-reminders.js";
import { loadConfig } from "../../../../src/composition/config.js";
import {
  assembleInventory,
  authSettings,
  appOptions,
  createInventoryContainer,
} from "../../../../src/composition/inventory-api.js";
import { memoryModule } from "../../../../src/composition/inventory-modules.js";
import { ITEM_REPOSITORY, type ItemRepository } from "../../../../src/ports/item-repository.js";
import { PUSH_REPOSITORY, type PushRepository } from "../../../../src/ports/push-repository.js";
import type { PushDelivery, PushOutcome, PushSender } from "../../../../src/ports/push-sender.js";

/** Answers per endpoint: "delivered", "gone", or an Error to throw. */
class ScriptedSender implements PushSender {
  readonly sent: PushDelivery[] = [];
  readonly script = new Map<string, PushOutcome | Error>();
  async send(delivery: PushDelivery): Promise<PushOutcome> {
    this.sent.push(delivery);
    const answer = this.script.get(delivery.subscription.endpoint) ?? "delivered";
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

async function world() {
  let now = new Date("2026-06-01T16:00:00Z"); // 18:00 in Berlin
  const clock = { now: () => now };
  const config = loadConfig({ JWT_SECRET: "push-unit-test-secret-0123456789abcdefgh" });
  const scope = createInventoryContainer(memoryModule(new MemoryInventoryStore()), {
    jwtSecret: config.JWT_SECRET!,
    config,
    clock,
    passwords: new ScryptPasswordHasher({ cost: 1024, blockSize: 8, parallelization: 1 }),
  });
  const logger = new MemoryLogger();
  const { useCases, itemUseCases, ports } = assembleInventory(scope, {
    logger,
    settings: authSettings(config),
    app: appOptions(config),
  });
  const push = scope.resolve<PushRepository>(PUSH_REPOSITORY);
  const sender = new ScriptedSender();
  const send = new SendDuePushReminders({
    push,
    items: scope.resolve<ItemRepository>(ITEM_REPOSITORY),
    sender,
    clock,
    timeZone: "UTC",
    timeZones: householdTimeZones(ports.households),
    logger,
  });
  const register = async (name: string) =>
    (await useCases.register.execute({ email: `${name}@example.com`, password: "password123", name })).user.id;
  const anna = await register("anna");
  const ben = await register("ben");
  const home = await useCases.createHousehold.execute({ userId: anna, name: "Home", timeZone: "Europe/Berlin" });
  const invite = await useCases.createInvite.execute({ userId: anna, householdId: home.id });
  await useCases.acceptInvite.execute({ userId: ben, code: invite.code });
  const freezer = await useCases.createFreezer.execute({ userId: anna, householdId: home.id, name: "Chest" });
  const compartment = await useCases.createCompartment.execute({
    userId: anna,
    householdId: home.id,
    freezerId: freezer.id,
    name: "Top",
  });
  const addItem = (name: string, expiresAt: string) =>
    itemUseCases.createItem.execute({
      householdId: home.id,
      userId: anna,
      name,
      quantity: 1,
      freezerId: freezer.id,
      compartmentId: compartment.id,
      expiresAt: new Date(expiresAt),
    });
  const device = async (userId: string, n: number, language: "en" | "de" = "en") =>
    (
      await push.saveSubscription(
        {
          endpoint: `https://push.example.com/${userId}/${n}`,
          userId,
          p256dh: `p${n}`,
          auth: `a${n}`,
          language,
          createdAt: now,
          updatedAt: now,
        },
        10,
      )
    )?.endpoint as string;
  const remind = (userId: string, changes: { enabled?: boolean; daysAhead?: number; timeOfDay?: string }) =>
    push.saveReminder({
      userId,
      householdId: home.id,
      enabled: true,
      daysAhead: 3,
      timeOfDay: "18:00",
      updatedAt: now,
      ...changes,
    });
  return {
    send,
    sender,
    push,
    useCases,
    home,
    anna,
    ben,
    addItem,
    device,
    remind,
    logger,
    at: (iso: string) => {
      now = new Date(iso);
    },
  };
}

describe("pushing members' expiry reminders", () => {
  it("sends nothing when nothing expires within the member's days ahead", async () => {
    const w = await world();
    await w.addItem("Bread", "2026-06-20T00:00:00Z");
    await w.device(w.anna, 1);
    await w.remind(w.anna, { daysAhead: 3 });
    expect(await w.send.execute()).to.deep.equal([]);
    expect(w.sender.sent).to.deep.equal([]);
    // Wider days ahead: now it is listed.
    await w.remind(w.anna, { daysAhead: 30 });
    expect(await w.send.execute()).to.have.length(1);
  });

  it("sends each member at their own time, to each of their devices in its language", async () => {
    const w = await world();
    await w.addItem("Peas", "2026-06-02T00:00:00Z");
    const annaPhone = await w.device(w.anna, 1, "de");
    const annaTablet = await w.device(w.anna, 2, "en");
    await w.device(w.ben, 3);
    await w.remind(w.anna, {});
    await w.remind(w.ben, { timeOfDay: "19:30" });
    expect(await w.send.execute()).to.deep.equal([`${w.anna}/${w.home.id}`]);
    expect(
      w.sender.sent.map((delivery) => [delivery.subscription.endpoint, delivery.notification.title]),
    ).to.deep.equal([
      [annaPhone, "1 Gefriergut bald verbrauchen"],
      [annaTablet, "1 freezer item to use soon"],
    ]);
    w.at("2026-06-01T17:31:00Z"); // 19:31 in Berlin
    expect(await w.send.execute()).to.deep.equal([`${w.ben}/${w.home.id}`]);
  });

  it("marks the day sent once one device has it, forgetting a gone one and not retrying a failed one", async () => {
    const w = await world();
    await w.addItem("Peas", "2026-06-02T00:00:00Z");
    const gone = await w.device(w.anna, 1);
    const failing = await w.device(w.anna, 2);
    await w.device(w.anna, 3);
    w.sender.script.set(gone, "gone");
    w.sender.script.set(failing, new Error("503 from the push service"));
    await w.remind(w.anna, {});
    expect(await w.send.execute()).to.have.length(1);
    expect((await w.push.listSubscriptions(w.anna)).map((row) => row.endpoint)).not.to.include(gone);
    expect(await w.send.execute()).to.deep.equal([]);
    expect(w.sender.sent).to.have.length(3);
  });

  it("gives the day back when every device failed", async () => {
    const w = await world();
    await w.addItem("Peas", "2026-06-02T00:00:00Z");
    const only = await w.device(w.anna, 1);
    w.sender.script.set(only, new Error("connection refused"));
    await w.remind(w.anna, {});
    expect(await w.send.execute()).to.deep.equal([]);
    w.sender.script.delete(only);
    expect(await w.send.execute()).to.have.length(1);
  });

  it("stops for a member who left the household, and for one with reminders off", async () => {
    const w = await world();
    await w.addItem("Peas", "2026-06-02T00:00:00Z");
    await w.device(w.ben, 1);
    await w.remind(w.ben, {});
    await w.useCases.leaveHousehold.execute({ userId: w.ben, householdId: w.home.id });
    await w.device(w.anna, 2);
    await w.remind(w.anna, { enabled: false });
    expect(await w.send.execute()).to.deep.equal([]);
    expect(w.sender.sent).to.deep.equal([]);
  });
});
