import { expect } from "chai";
import { createTestEngine, FakeRelays, FakeWeather, type TestEngine } from "hearth/testing";
import FreezerDoorAlarm from "../../../automations/freezer-door-alarm.js";

describe("freezer-door-alarm (bundled automation)", () => {
  let t: TestEngine;
  let relay: FakeRelays;
  let weather: FakeWeather;

  beforeEach(async () => {
    relay = new FakeRelays(["freezer-alarm"]);
    weather = new FakeWeather().forecast({
      daily: [
        {
          date: new Date("2026-03-02T00:00:00Z"),
          temperatureMin: 1.4,
          temperatureMax: 9.6,
          precipitation: 0.4,
          precipitationProbability: 30,
          windSpeedMax: 18,
          sunrise: new Date("2026-03-02T06:10:00Z"),
          sunset: new Date("2026-03-02T17:45:00Z"),
          code: 3,
          description: "Overcast",
        },
      ],
    });
    t = await createTestEngine({
      automations: [FreezerDoorAlarm],
      now: "2026-03-02T06:00:00Z",
      services: { relay, weather },
    });
  });

  afterEach(() => t.stop());

  it("alarms after two minutes open (notification and relay), and clears when the door closes", async () => {
    await t.publish("zigbee2mqtt/freezer_door", { contact: false });
    await t.advance("1m50s");
    expect(t.notifications).to.be.empty;
    expect(relay.isOn("freezer-alarm")).to.equal(false);

    await t.advance("30s");
    t.expectNotified({ title: "Freezer door open", priority: "urgent" });
    expect(relay.isOn("freezer-alarm")).to.equal(true);

    await t.publish("zigbee2mqtt/freezer_door", { contact: true });
    expect(relay.isOn("freezer-alarm")).to.equal(false);
    t.expectNotified({ title: "Freezer", message: "The freezer door is closed again." });
    expect(t.state.has("freezer.door.alarmed")).to.equal(false);
  });

  it("says nothing when the door closes in time", async () => {
    await t.publish("zigbee2mqtt/freezer_door", { contact: false });
    await t.advance("1m");
    await t.publish("zigbee2mqtt/freezer_door", { contact: true });
    await t.advance("5m");
    expect(t.notifications).to.be.empty;
    expect(t.serviceCalls.filter((call) => call.service === "relay")).to.be.empty;
  });

  it("still notifies when the relay cannot be switched, logging why", async () => {
    await t.stop();
    t = await createTestEngine({
      automations: [FreezerDoorAlarm],
      services: { relay: new FakeRelays(["something-else"]) },
    });
    await t.publish("zigbee2mqtt/freezer_door", { contact: false });
    await t.advance("2m10s");
    t.expectNotified({ title: "Freezer door open" });
    expect(t.logs.some((entry) => entry.level === "warn" && /freezer alarm relay/.test(entry.msg))).to.equal(true);
  });

  it("sends the morning forecast at 07:00", async () => {
    await t.advance("1h");
    t.expectNotified({
      title: "Today: Overcast",
      message: /^1–10 °C, 30% chance of rain\. Sunrise 06:10, sunset 17:45\.$/,
    });
  });

  it("skips the forecast while the weather service is down, logging why", async () => {
    await t.stop();
    t = await createTestEngine({
      automations: [FreezerDoorAlarm],
      now: "2026-03-02T06:59:30Z",
      services: { weather: new FakeWeather().fail() },
    });
    await t.advance("1m");
    expect(t.notifications).to.be.empty;
    expect(t.logs.some((entry) => entry.msg === "No forecast this morning")).to.equal(true);
  });
});
