import { expect } from "chai";
import { createTestEngine, type TestEngine } from "hearth/testing";
import DoorReminder from "../../../automations/door-reminder.js";

describe("door-reminder (bundled automation)", () => {
  let t: TestEngine;

  beforeEach(async () => {
    t = await createTestEngine({ automations: [DoorReminder], now: "2026-03-01T18:00:00Z" });
  });

  afterEach(() => t.stop());

  it("reminds once when the front door has been open for ten minutes", async () => {
    await t.publish("zigbee2mqtt/front_door", { contact: false });
    await t.advance("9m");
    expect(t.notifications).to.be.empty;

    await t.advance("1m");
    t.expectNotified({ title: "Front door", message: /open for 10 minutes/, priority: 4 });

    await t.advance("30m");
    expect(t.notifications).to.have.length(1);
  });

  it("does not remind when the door closes in time, and starts over next time", async () => {
    await t.publish("zigbee2mqtt/front_door", { contact: false });
    await t.advance("5m");
    await t.publish("zigbee2mqtt/front_door", { contact: true });
    expect(t.state.has("front-door.open-since")).to.equal(false);
    await t.advance("20m");
    expect(t.notifications).to.be.empty;
  });

  it("logs a warning and sends nothing without a notifications service", async () => {
    await t.stop();
    t = await createTestEngine({ automations: [DoorReminder], services: { notifications: null } });
    await t.publish("zigbee2mqtt/front_door", { contact: false });
    await t.advance("10m");
    expect(t.notifications).to.be.empty;
    expect(t.logs.some((entry) => entry.level === "warn" && /no notifications service/.test(entry.msg))).to.equal(true);
  });
});
