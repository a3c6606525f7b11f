import { expect } from "chai";
import { createTestEngine, type TestEngine } from "hearth/testing";
import MotionLight from "../../../automations/motion-light.js";

describe("motion-light (bundled automation)", () => {
  let t: TestEngine;

  beforeEach(async () => {
    t = await createTestEngine({ automations: [MotionLight] });
  });

  afterEach(() => t.stop());

  it("turns the hallway light on at motion and off two minutes after the last motion", async () => {
    await t.publish("zigbee2mqtt/hallway_motion", { occupancy: true });
    t.expectPublished("zigbee2mqtt/hallway_light/set", { state: "ON", brightness: 200 });

    await t.advance("1m59s");
    t.expectNothingPublished("zigbee2mqtt/hallway_light/set", { state: "OFF" });
    await t.advance("1s");
    t.expectPublished("zigbee2mqtt/hallway_light/set", { state: "OFF" });
  });

  it("restarts the countdown on new motion", async () => {
    await t.publish("zigbee2mqtt/hallway_motion", { occupancy: true });
    await t.advance("90s");
    await t.publish("zigbee2mqtt/hallway_motion", { occupancy: true });
    await t.advance("90s");
    t.expectNothingPublished("zigbee2mqtt/hallway_light/set", { state: "OFF" });
    await t.advance("30s");
    t.expectPublished("zigbee2mqtt/hallway_light/set", { state: "OFF" });
  });

  it("ignores messages without occupancy, counting them as rejected by the filter", async () => {
    await t.publish("zigbee2mqtt/hallway_motion", { battery: 97 });
    t.expectNothingPublished();
    const [rejected] = t.traces("motion-light").rejected;
    expect(rejected).to.include({ trigger: 0, count: 1 });
    expect(rejected?.lastPayload).to.deep.equal({ topic: "zigbee2mqtt/hallway_motion", payload: { battery: 97 } });
  });

  it("leaves no timer behind when stopped", async () => {
    await t.publish("zigbee2mqtt/hallway_motion", { occupancy: true });
    expect(t.manager.pendingTimers("motion-light")).to.equal(1);
    await t.stop();
    await t.advance("5m");
    t.expectNothingPublished("zigbee2mqtt/hallway_light/set", { state: "OFF" });
  });
});
