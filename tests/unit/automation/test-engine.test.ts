import { AssertionError } from "node:assert";
import { expect } from "chai";
import { Automation, type Trigger, type TriggerContext } from "hearth";
import { createTestEngine, parseDuration, type TestEngine } from "hearth/testing";

class DeviceWatcher extends Automation {
  readonly name = "device-watcher";
  readonly triggers: Trigger[] = [
    { type: "device_joined" },
    { type: "device_left" },
    { type: "device_state", friendlyName: "porch_motion", filter: (state) => state.occupancy === true },
  ];
  async execute(context: TriggerContext): Promise<void> {
    if (context.type === "device_state") this.state.set("porch.battery", context.state.battery);
    else if (context.type === "device_joined" || context.type === "device_left")
      this.state.set(`last.${context.type}`, context.device.friendly_name);
  }
}

class WeatherReport extends Automation {
  readonly name = "weather-report";
  readonly triggers: Trigger[] = [{ type: "cron", expression: "0 7 * * *" }];
  override readonly requiredServices = ["weather"];
  async execute(): Promise<void> {
    const weather = this.require<{ current(city: string): Promise<{ temperature: number }> }>("weather");
    const { temperature } = await weather.current("Utrecht");
    const response = await this.http.get<{ text: string }>("https://quotes.example/today");
    await this.notify({
      title: "Morning",
      message: `${temperature} °C. ${response.ok ? response.data.text : "no quote"}`,
    });
  }
}

class Ticker extends Automation {
  readonly name = "ticker";
  readonly triggers: Trigger[] = [];
  override async onStart(): Promise<void> {
    this.every(60_000, () => this.mqtt.publish("home/tick", { at: this.now().toISOString() }));
    this.after(90_000, () => this.mqtt.publish("home/once", "fired"));
  }
  async execute(): Promise<void> {}
}

describe("createTestEngine (hearth/testing)", () => {
  let t: TestEngine | undefined;
  afterEach(() => t?.stop());

  it("simulates Zigbee2MQTT: joins, leaves and state reports fire device triggers", async () => {
    t = await createTestEngine({ automations: [DeviceWatcher], devices: ["porch_motion"] });
    expect(t.devices.list().map((device) => device.friendly_name)).to.deep.equal(["porch_motion"]);
    await t.devices.report("porch_motion", { occupancy: true, battery: 81 });
    expect(t.state.get("porch.battery")).to.equal(81);
    await t.devices.report("porch_motion", { occupancy: false, battery: 80 });
    expect(t.state.get("porch.battery")).to.equal(81);
    await t.devices.join({ friendly_name: "garage_plug", type: "Router" });
    expect(t.state.get("last.device_joined")).to.equal("garage_plug");
    await t.devices.leave("garage_plug");
    expect(t.state.get("last.device_left")).to.equal("garage_plug");
    let error: unknown;
    await t.devices.leave("nothing").catch((caught: unknown) => {
      error = caught;
    });
    expect(error).to.be.instanceOf(AssertionError);
  });

  it("records service calls and notifications, and answers HTTP from the test's routes", async () => {
    t = await createTestEngine({
      automations: [WeatherReport],
      now: "2026-02-01T06:00:00Z",
      services: { weather: { current: async () => ({ temperature: 4 }) } },
    });
    t.http.on("GET", "https://quotes.example/today", { data: { text: "Carpe diem." } });
    await t.advance("1h");
    t.expectNotified({ title: "Morning", message: "4 °C. Carpe diem." });
    expect(t.serviceCalls.map(({ service, method, args }) => ({ service, method, args }))).to.deep.equal([
      { service: "weather", method: "current", args: ["Utrecht"] },
      { service: "notifications", method: "send", args: [{ title: "Morning", message: "4 °C. Carpe diem." }] },
    ]);
    expect(t.http.requests).to.deep.equal([
      { method: "GET", url: "https://quotes.example/today", headers: {}, body: undefined },
    ]);
    const [trace] = t.traces("weather-report").traces;
    expect(trace?.serviceCalls.map((call) => `${call.service}.${call.method}`)).to.deep.equal([
      "weather.current",
      "notifications.send",
    ]);
  });

  it("answers unknown HTTP with a 404, never the network", async () => {
    t = await createTestEngine({
      automations: [WeatherReport],
      now: "2026-02-01T06:59:00Z",
      services: { weather: { current: async () => ({ temperature: -2 }) } },
    });
    await t.advance("1m");
    t.expectNotified({ message: "-2 °C. no quote" });
  });

  it("refuses to start an automation whose required service is missing, saying why", async () => {
    let error: unknown;
    try {
      t = await createTestEngine({ automations: [WeatherReport] });
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.include("weather-report did not register: missing required service(s): weather");
  });

  it("drives after() and every() timers with advance(), in order", async () => {
    t = await createTestEngine({ automations: [Ticker], now: "2026-01-01T00:00:00Z" });
    await t.advance("3m");
    expect(t.published.map((message) => `${message.topic} ${message.raw}`)).to.deep.equal([
      'home/tick {"at":"2026-01-01T00:01:00.000Z"}',
      "home/once fired",
      'home/tick {"at":"2026-01-01T00:02:00.000Z"}',
      'home/tick {"at":"2026-01-01T00:03:00.000Z"}',
    ]);
    expect(t.now().toISOString()).to.equal("2026-01-01T00:03:00.000Z");
  });

  it("explains a failed expectation with what was published", async () => {
    t = await createTestEngine({ automations: [Ticker] });
    await t.advance("1m");
    expect(() => t?.expectPublished("home/tick", { at: "never" })).to.throw(
      AssertionError,
      /home\/tick \{"at":"2026-01-01T00:01:00.000Z"\}/,
    );
    expect(() => t?.expectNothingPublished("home/+")).to.throw(AssertionError, /Expected nothing on home\/\+/);
    expect(() => t?.expectNotified({ title: "x" })).to.throw(AssertionError, /none was sent/);
    expect(t.expectPublished("home/#", { at: /T00:01/ }).topic).to.equal("home/tick");
    t.clear();
    t.expectNothingPublished();
  });

  it("reads durations and refuses ones it cannot read", () => {
    expect(parseDuration("1h30m")).to.equal(5_400_000);
    expect(parseDuration("500ms")).to.equal(500);
    expect(parseDuration("2d")).to.equal(172_800_000);
    expect(parseDuration(250)).to.equal(250);
    expect(() => parseDuration("soon")).to.throw(/Cannot read the duration "soon"/);
    expect(() => parseDuration("5 minutes")).to.throw(RangeError);
    expect(() => parseDuration(-1)).to.throw(RangeError);
  });

  it("needs the automations to test", async () => {
    let error: unknown;
    try {
      await createTestEngine(undefined as never);
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).to.include("needs the automations to test");
  });
});
