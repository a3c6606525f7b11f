/**
 * Push reminders end to end: a member subscribes a device and turns the reminder on over HTTP,
 * the scheduled check pushes through the real web-push library to a local push service that
 * checks the VAPID signature and decrypts the message as the phone would, on PGlite.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import request from "supertest";
import { KnexHouseholdRepository } from "../../../src/adapters/persistence/knex-household-repository.js";
import { KnexItemRepository } from "../../../src/adapters/persistence/knex-item-repository.js";
import { KnexPushRepository } from "../../../src/adapters/persistence/knex-push-repository.js";
import { topicOf, WebPushSender } from "../../../src/adapters/services/web-push/web-push-sender.js";
import { householdTimeZones } from "../../../src/application/inventory/households/household-time-zones.js";
import { SendDuePushReminders } from "../../../src/application/inventory/push/send-due-push-reminders.js";
import { loadConfig } from "../../../src/composition/config.js";
import { buildInventoryApi } from "../../../src/composition/inventory-api.js";
import { memberReminderKey } from "../../../src/domain/inventory/push-reminder.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { FAKE_PUSH_CA, FakePushService } from "../../support/fake-push-service.js";
import { useMigratedDatabase } from "../../support/migrated-database.js";

describe("push reminders end to end (PGlite, web-push, a local push service)", function () {
  this.timeout(60_000);
  const database = useMigratedDatabase("pglite");
  let dataDir: string;
  let fake: FakePushService;
  // Auckland is 13 hours ahead of UTC in November: the family's day starts on the previous UTC day.
  let now = new Date("2026-11-26T17:00:00Z"); // 06:00 on 27 Nov in Auckland
  const clock = { now: () => now };
  let api: Awaited<ReturnType<typeof buildInventoryApi>>;
  let send: SendDuePushReminders;
  let token: string;
  let householdId: string;
  let userId: string;
  const logger = new MemoryLogger();

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "hearth-push-"));
    fake = await FakePushService.start();
    const config = loadConfig({
      JWT_SECRET: "push-end-to-end-test-secret-0123456789abcdef",
      DATA_DIR: dataDir,
      PUSH_ALLOW_PRIVATE_ENDPOINTS: "true",
      VAPID_SUBJECT: "mailto:family@example.com",
      RATE_LIMIT_PER_MINUTE: "1000",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    });
    api = await buildInventoryApi({ config, database: database(), logger, clock });
    const knex = database().knex;
    send = new SendDuePushReminders({
      push: new KnexPushRepository(knex),
      items: new KnexItemRepository(knex),
      sender: new WebPushSender({
        keys: api.vapidKeys,
        subject: config.VAPID_SUBJECT,
        allowPrivate: true,
        ca: FAKE_PUSH_CA,
      }),
      clock,
      timeZone: "UTC",
      timeZones: householdTimeZones(new KnexHouseholdRepository(knex)),
      logger,
    });

    const registered = await request(api.app)
      .post("/api/v1/auth/register")
      .send({ email: "anna@example.com", password: "password123", name: "Anna" });
    token = registered.body.accessToken;
    userId = registered.body.user.id;
    const auth = { Authorization: `Bearer ${token}` };
    const household = await request(api.app)
      .post("/api/v1/households")
      .set(auth)
      .send({ name: "Home", timeZone: "Pacific/Auckland" });
    householdId = household.body.id;
    const freezer = await request(api.app)
      .post(`/api/v1/households/${householdId}/freezers`)
      .set(auth)
      .send({ name: "Chest" });
    const compartment = await request(api.app)
      .post(`/api/v1/households/${householdId}/freezers/${freezer.body.id}/compartments`)
      .set(auth)
      .send({ name: "Top" });
    const place = { freezerId: freezer.body.id, compartmentId: compartment.body.id };
    for (const [name, expiresAt] of [
      ["Erbsen", "2026-11-26T00:00:00Z"], // yesterday in Auckland: expired
      ["Eintopf", "2026-11-29T00:00:00Z"], // in two days
      ["Brot", "2026-12-20T00:00:00Z"], // beyond the days ahead
    ]) {
      const created = await request(api.app)
        .post(`/api/v1/households/${householdId}/items`)
        .set(auth)
        .send({ name, quantity: 1, expiresAt, ...place });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
  });

  after(async () => {
    await api?.close();
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const auth = () => ({ Authorization: `Bearer ${token}` });

  it("hands out the public key the server signs with", async () => {
    const response = await request(api.app).get("/api/v1/push/public-key");
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ publicKey: api.vapidKeys.publicKey });
    expect(api.vapidKeys.source).to.equal("generated");
  });

  it("pushes once at the member's time in the household's zone, encrypted and signed, in German", async () => {
    const subscription = fake.subscribe();
    const subscribed = await request(api.app)
      .post("/api/v1/users/me/push-subscriptions")
      .set(auth())
      .send({ ...subscription, language: "de" });
    expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(201);
    expect(subscribed.body).to.include({ endpoint: subscription.endpoint, language: "de" });
    const settings = await request(api.app)
      .put(`/api/v1/households/${householdId}/push-reminders`)
      .set(auth())
      .send({ enabled: true, timeOfDay: "07:00", daysAhead: 3 });
    expect(settings.body).to.include({ enabled: true, timeOfDay: "07:00", daysAhead: 3, lastSentOn: null });

    expect(await send.execute(), "before 07:00 in Auckland").to.deep.equal([]);
    now = new Date("2026-11-26T18:05:00Z"); // 07:05 on 27 Nov in Auckland
    const sent = await send.execute();
    expect(sent, JSON.stringify([logger.entries, fake.refused])).to.deep.equal([`${userId}/${householdId}`]);
    await fake.requestsReach(1);
    expect(fake.refused).to.deep.equal([]);
    const [push] = fake.received;
    expect(push!.vapidKey).to.equal(api.vapidKeys.publicKey);
    expect(push!.claims).to.include({ aud: fake.origin, sub: "mailto:family@example.com" });
    expect(push!.headers).to.include({
      topic: topicOf(memberReminderKey(userId, householdId)),
      urgency: "normal",
      ttl: "86400",
    });
    expect(push!.message).to.deep.equal({
      title: "2 Gefriergüter bald verbrauchen",
      body: "Erbsen: abgelaufen am 26. Nov.\nEintopf: läuft am 29. Nov. ab",
      url: `/?household=${householdId}&before=2026-12-01&sort=expiresAt:asc`,
      tag: memberReminderKey(userId, householdId),
    });

    // The same day again: nothing more.
    now = new Date("2026-11-26T20:00:00Z");
    expect(await send.execute()).to.deep.equal([]);
    expect(fake.received.length).to.equal(1);
    const stored = await request(api.app).get(`/api/v1/households/${householdId}/push-reminders`).set(auth());
    expect(stored.body.lastSentOn).to.equal("2026-11-27");
  });

  it("gives the day back when the push service fails, and pushes at the next check", async () => {
    const device = fake.received[0]!.device;
    now = new Date("2026-11-27T18:05:00Z"); // 07:05 on 28 Nov
    fake.answer.set(device, 500);
    expect(await send.execute()).to.deep.equal([]);
    await fake.requestsReach(2);
    fake.answer.delete(device);
    expect(await send.execute()).to.deep.equal([`${userId}/${householdId}`]);
    expect(fake.received.length).to.equal(3);
    expect(logger.entries.some((entry) => /trying again at the next check/.test(entry.msg))).to.equal(true);
  });

  it("forgets the device when the push service answers 410 Gone (or 404)", async () => {
    const device = fake.received[0]!.device;
    now = new Date("2026-11-28T18:05:00Z");
    fake.answer.set(device, 410);
    expect(await send.execute()).to.deep.equal([]);
    expect(await new KnexPushRepository(database().knex).listSubscriptions(userId)).to.deep.equal([]);

    const second = fake.subscribe();
    await request(api.app).post("/api/v1/users/me/push-subscriptions").set(auth()).send(second).expect(201);
    fake.answer.set(second.endpoint.split("/").pop()!, 404);
    now = new Date("2026-11-29T18:05:00Z");
    expect(await send.execute()).to.deep.equal([]);
    expect(await new KnexPushRepository(database().knex).listSubscriptions(userId)).to.deep.equal([]);
  });

  it("turns a device off by its endpoint, and says 404 for one the account does not have", async () => {
    const third = fake.subscribe();
    await request(api.app).post("/api/v1/users/me/push-subscriptions").set(auth()).send(third).expect(201);
    await request(api.app)
      .delete("/api/v1/users/me/push-subscriptions")
      .set(auth())
      .send({ endpoint: third.endpoint })
      .expect(200);
    const again = await request(api.app)
      .delete("/api/v1/users/me/push-subscriptions")
      .set(auth())
      .send({ endpoint: third.endpoint });
    expect(again.status).to.equal(404);
    expect(again.body).to.include({ statusCode: 404 });
  });

  it("refuses to connect to a private address when private endpoints are not allowed", async () => {
    const strict = new WebPushSender({
      keys: api.vapidKeys,
      subject: "mailto:family@example.com",
      allowPrivate: false,
      ca: FAKE_PUSH_CA,
    });
    const device = fake.subscribe();
    const before = fake.received.length + fake.refused.length;
    let error: unknown;
    try {
      // A name (not an IP literal), as a public-looking DNS name pointing into the LAN would be.
      await strict.send({
        subscription: { endpoint: device.endpoint.replace("127.0.0.1", "localhost"), ...device.keys },
        notification: { title: "t", body: "b", url: "/", tag: "x" },
        replaceKey: "x",
        ttlSeconds: 60,
      });
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.match(/private address/);
    expect(fake.received.length + fake.refused.length).to.equal(before);
  });

  it("reuses the key pair of DATA_DIR on the next start", async () => {
    const next = await buildInventoryApi({
      config: loadConfig({ JWT_SECRET: "push-end-to-end-test-secret-0123456789abcdef", DATA_DIR: dataDir }),
      database: database(),
      logger,
      clock,
    });
    try {
      expect(next.vapidKeys).to.deep.include({ publicKey: api.vapidKeys.publicKey, source: "file" });
    } finally {
      await next.close();
    }
  });
});
