/**
 * The example automation automations/freezer-door-alarm.ts, run by a real engine built
 * from configuration alone (NTFY_*, WEATHER_*, SHELLY_*), against the fakes on loopback:
 * ntfy, Open-Meteo and a Shelly with digest auth. Time is the engine's fake clock.
 */
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { createEngine, type Engine } from "../../../src/index.js";
import { FakeMqttClient, FakeTime, waitFor } from "../../support/engine-fakes.js";
import { FakeNtfy } from "../../support/fake-ntfy.js";
import { FakeShellyHttp, ShellyDeviceModel } from "../../support/fake-shelly.js";
import { FakeWeather } from "../../support/fake-weather.js";

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("example automation: freezer door alarm with ntfy, Shelly and the weather", () => {
  let ntfy: FakeNtfy;
  let weather: FakeWeather;
  let relay: ShellyDeviceModel;
  let shelly: FakeShellyHttp;
  let dir: string;
  let engine: Engine | undefined;
  let mqtt: FakeMqttClient;
  let time: FakeTime;
  let logger: MemoryLogger;

  beforeEach(async () => {
    ntfy = await FakeNtfy.start({ token: "tk_freezer" });
    weather = await FakeWeather.start();
    relay = new ShellyDeviceModel("shellyplus1-alarm", { switches: [0] });
    shelly = await FakeShellyHttp.start(relay, { password: "relay-pw" });
    // Inside the checkout, so the automation's `import "hearth"` resolves by package self-reference.
    await mkdir("tmp", { recursive: true });
    dir = await mkdtemp(path.resolve("tmp", "freezer-alarm-"));
    await copyFile(path.resolve("automations", "freezer-door-alarm.ts"), path.join(dir, "freezer-door-alarm.ts"));
    time = new FakeTime("2026-11-24T06:55:00Z");
    weather.now = time.now();
    mqtt = new FakeMqttClient();
    logger = new MemoryLogger();
    engine = createEngine({
      automationsDir: dir,
      logger,
      mqttClient: mqtt,
      clock: time,
      timer: time,
      httpPort: 0,
      httpHost: "127.0.0.1",
      handleSignals: false,
      config: {
        TZ: "UTC",
        HTTP_TOKEN: undefined,
        DEVICE_REGISTRY_ENABLED: false,
        STATE_PERSIST: false,
        NTFY_URL: ntfy.url,
        NTFY_TOPIC: "freezer",
        NTFY_TOKEN: "tk_freezer",
        WEATHER_PROVIDER: "open-meteo",
        WEATHER_LATITUDE: 59.91,
        WEATHER_LONGITUDE: 10.75,
        WEATHER_API_URL: weather.url,
        SHELLY_DEVICES: { "freezer-alarm": { transport: "http", address: shelly.url, switches: [0], covers: [] } },
        SHELLY_PASSWORD: "relay-pw",
      },
    });
    await engine.start();
  });

  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
    await Promise.all([ntfy.close(), weather.close(), shelly.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  /** Moves the fake clock in 10-second steps, letting each tick's automation run finish. */
  async function advance(seconds: number): Promise<void> {
    for (let step = 0; step < seconds / 10; step++) {
      time.advance(10_000);
      for (let i = 0; i < 5; i++) await settle();
    }
  }

  it("alarms after 2 minutes open, switches the relay, and sends the morning forecast", async () => {
    const running = engine!;
    expect(running.manager.getAutomation("freezer-door-alarm")?.status).to.equal("running");
    expect(running.services.keys()).to.have.members(["notifications", "weather", "relay"]);

    mqtt.deliver("zigbee2mqtt/freezer_door", { contact: false, battery: 90 });
    await waitFor(() => running.state.get("freezer.door.open") === true, 5000, "the door to be seen open");

    await advance(110); // 06:56:50: open since the 06:55:10 tick, under 2 minutes
    expect(ntfy.published).to.have.length(0);
    expect(relay.switches.get(0)?.output).to.equal(false);

    await advance(20); // 06:57:10: 2 minutes
    await waitFor(() => ntfy.published.length === 1 && relay.switches.get(0)?.output === true, 5000, "the alarm");
    expect(ntfy.published[0]).to.deep.include({
      topic: "freezer",
      title: "Freezer door open",
      priority: 5,
      tags: ["warning", "snowflake"],
    });
    await waitFor(() => running.state.get("relay.freezer-alarm.0") !== undefined, 5000, "the relay state");
    expect(running.state.get("relay.freezer-alarm.0")).to.deep.include({ kind: "switch", on: true });

    await advance(60); // no second alarm while the door stays open
    expect(ntfy.published).to.have.length(1);

    mqtt.deliver("zigbee2mqtt/freezer_door", { contact: true });
    await waitFor(() => ntfy.published.length === 2 && relay.switches.get(0)?.output === false, 5000, "the all-clear");
    expect(ntfy.published[1]?.message).to.match(/closed again/);

    await advance(120); // past 07:00
    await waitFor(() => ntfy.published.length === 3, 5000, "the morning forecast");
    expect(ntfy.published[2]).to.deep.include({ title: "Today: Light rain", topic: "freezer" });
    expect(ntfy.published[2]?.message).to.match(/^1–7 °C, 80% chance of rain\. Sunrise 07:30, sunset 16:00\.$/);

    const response = await fetch(`http://127.0.0.1:${running.httpPort}/api/services`);
    const body = (await response.json()) as { services: { key: string; reachable: boolean | null; config: unknown }[] };
    expect(body.services.map((service) => [service.key, service.reachable])).to.deep.equal([
      ["notifications", true],
      ["weather", true],
      ["relay", true],
    ]);
    const everything = JSON.stringify([body, logger.entries]);
    expect(everything).not.to.contain("tk_freezer");
    expect(everything).not.to.contain("relay-pw");
  });
});
