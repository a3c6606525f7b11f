import { expect } from "chai";
import request from "supertest";
import { MAX_PUSH_SUBSCRIPTIONS_PER_USER } from "../../../../src/domain/inventory/push-reminder.js";
import { TEST_VAPID_KEYS } from "../../../support/memory-inventory-api.js";
import { buildWorld, type InventoryWorld } from "./inventory-http-world.js";
import { browserSubscription, pushBadBodies } from "./push-rows.js";

describe("inventory HTTP: Web Push routes", () => {
  let world: InventoryWorld;
  beforeEach(async () => {
    world = await buildWorld();
  });

  const subscriptions = "/api/v1/users/me/push-subscriptions";
  const reminders = () => `/api/v1/households/${world.householdId}/push-reminders`;

  for (const route of pushBadBodies) {
    describe(`${route.route}: refused with 400 and details`, () => {
      for (const [problem, body] of Object.entries(route.bad)) {
        it(problem, async () => {
          const response = await request(world.app)
            [route.method](route.path(world))
            .set(world.auth("member"))
            .send(body as object);
          expect(response.status, JSON.stringify(response.body)).to.equal(400);
          expect(response.body).to.include({ statusCode: 400, error: "Bad Request" });
          expect(response.body.details).to.be.an("array").that.is.not.empty;
        });
      }
      it("malformed JSON", async () => {
        const response = await request(world.app)
          [route.method](route.path(world))
          .set(world.auth("member"))
          .set("Content-Type", "application/json")
          .send('{"endpoint": "unterminated');
        expect(response.status).to.equal(400);
      });
    });
  }

  it("bad input stores nothing: the member's ten devices are still all free", async () => {
    for (const route of pushBadBodies.filter((candidate) => candidate.method === "post"))
      for (const body of Object.values(route.bad))
        await request(world.app)
          .post(subscriptions)
          .set(world.auth("member"))
          .send(body as object);
    for (let n = 0; n < MAX_PUSH_SUBSCRIPTIONS_PER_USER; n++)
      await request(world.app)
        .post(subscriptions)
        .set(world.auth("member"))
        .send(browserSubscription(`d${n}`))
        .expect(201);
  });

  it("refuses an eleventh device with 409, and takes one again after a device is removed", async () => {
    const devices = Array.from({ length: MAX_PUSH_SUBSCRIPTIONS_PER_USER }, (_, n) => browserSubscription(`d${n}`));
    for (const device of devices)
      await request(world.app).post(subscriptions).set(world.auth("member")).send(device).expect(201);
    const refused = await request(world.app)
      .post(subscriptions)
      .set(world.auth("member"))
      .send(browserSubscription("eleventh"));
    expect(refused.status).to.equal(409);
    expect(refused.body).to.include({ statusCode: 409, error: "Conflict" });
    // Renewing a device it has is not a new one.
    await request(world.app)
      .post(subscriptions)
      .set(world.auth("member"))
      .send({ ...devices[0], language: "de" })
      .expect(201);
    await request(world.app)
      .delete(subscriptions)
      .set(world.auth("member"))
      .send({ endpoint: devices[1]!.endpoint })
      .expect(200);
    await request(world.app)
      .post(subscriptions)
      .set(world.auth("member"))
      .send(browserSubscription("again"))
      .expect(201);
  });

  it("one account cannot remove another's device", async () => {
    const device = browserSubscription("mine");
    await request(world.app).post(subscriptions).set(world.auth("member")).send(device).expect(201);
    await request(world.app)
      .delete(subscriptions)
      .set(world.auth("owner"))
      .send({ endpoint: device.endpoint })
      .expect(404);
    await request(world.app)
      .delete(subscriptions)
      .set(world.auth("member"))
      .send({ endpoint: device.endpoint })
      .expect(200);
  });

  it("answers the server's public key without a session", async () => {
    const response = await request(world.app).get("/api/v1/push/public-key");
    expect(response.body).to.deep.equal({ publicKey: TEST_VAPID_KEYS.publicKey });
  });

  it("keeps each member's reminder apart: the defaults, a change, the other member's untouched", async () => {
    const defaults = await request(world.app).get(reminders()).set(world.auth("member"));
    expect(defaults.body).to.include({ enabled: false, daysAhead: 3, timeOfDay: "18:00", lastSentOn: null });
    const changed = await request(world.app)
      .put(reminders())
      .set(world.auth("member"))
      .send({ enabled: true, timeOfDay: "07:15" });
    expect(changed.body).to.include({ enabled: true, daysAhead: 3, timeOfDay: "07:15" });
    const owner = await request(world.app).get(reminders()).set(world.auth("owner"));
    expect(owner.body).to.include({ enabled: false, timeOfDay: "18:00" });
    const outsider = await request(world.app)
      .put(`/api/v1/households/${world.other.householdId}/push-reminders`)
      .set(world.auth("member"))
      .send({ enabled: true });
    expect(outsider.status).to.equal(403);
  });
});
