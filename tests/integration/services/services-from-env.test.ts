/**
 * `npm start` with the services configured by environment variables alone: the whole
 * process (startHearth) against the fakes on loopback and a Shelly on the test broker.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "chai";
import type { LightPanelService, RelayService } from "../../../src/index.js";
import { ConfigError } from "../../../src/composition/config.js";
import { startHearth } from "../../../src/composition/hearth.js";
import { waitFor } from "../../support/engine-fakes.js";
import { FakeNanoleaf } from "../../support/fake-nanoleaf.js";
import { FakeNtfy } from "../../support/fake-ntfy.js";
import { FakeShellyHttp, FakeShellyMqtt, ShellyDeviceModel } from "../../support/fake-shelly.js";
import { FakeWeather } from "../../support/fake-weather.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../../support/test-servers.js";
import { startTestHearth, type TestHearth } from "../../support/test-hearth.js";

describe("services configured from the environment under npm start", function () {
  this.timeout(60_000);
  let ntfy: FakeNtfy;
  let weather: FakeWeather;
  let panel: FakeNanoleaf;
  let kitchen: ShellyDeviceModel;
  let kitchenHttp: FakeShellyHttp;
  let garage: ShellyDeviceModel;
  let garageMqtt: FakeShellyMqtt;
  let broker: TestBroker;
  let running: TestHearth;

  before(async () => {
    broker = await acquireBroker("services-from-env");
    ntfy = await FakeNtfy.start({ token: "tk_env_secret" });
    weather = await FakeWeather.start();
    weather.now = new Date();
    panel = await FakeNanoleaf.start();
    kitchen = new ShellyDeviceModel("shellypro2-kitchen", { switches: [0, 1] });
    kitchenHttp = await FakeShellyHttp.start(kitchen, { password: "shelly-env-pw" });
    garage = new ShellyDeviceModel("shellyplus1-garage", { switches: [0] });
    const garagePrefix = uniqueTopicPrefix("garage");
    garageMqtt = await FakeShellyMqtt.start(broker.url, garagePrefix, garage);
    running = await startTestHearth("services-from-env", {
      LOG_LEVEL: "debug",
      // The broker the fake garage device is on (startTestHearth's own may be another embedded one).
      MQTT_HOST: broker.host,
      MQTT_PORT: String(broker.port),
      NTFY_URL: ntfy.url,
      NTFY_TOPIC: "home",
      NTFY_CHANNELS: "alarm=home-alarm",
      NTFY_TOKEN: "tk_env_secret",
      WEATHER_LATITUDE: "59.91",
      WEATHER_LONGITUDE: "10.75",
      WEATHER_API_URL: weather.url,
      SHELLY_DEVICES: `kitchen=${kitchenHttp.url}|switch:0|switch:1,garage=mqtt:${garagePrefix}`,
      SHELLY_PASSWORD: "shelly-env-pw",
      NANOLEAF_PANELS: `living=${panel.url}`,
    });
  });

  after(async () => {
    await running?.release();
    await garageMqtt?.close();
    await Promise.all([ntfy?.close(), weather?.close(), panel?.close(), kitchenHttp?.close()]);
    await broker?.release();
  });

  it("registers all four services and reports them in /api/services and /api/status", async () => {
    const { engine } = running.hearth;
    // startHearth adds the inventory service of the household surface beside the four.
    expect(engine.services.keys()).to.deep.equal(["notifications", "weather", "relay", "lightPanels", "inventory"]);
    const base = `http://127.0.0.1:${running.hearth.httpPort}`;
    const services = (await (await fetch(`${base}/api/services`)).json()) as {
      services: { key: string; provider: string; configured: boolean }[];
    };
    const envServices = services.services.filter((service) => service.key !== "inventory");
    expect(envServices.map((service) => [service.key, service.provider, service.configured])).to.deep.equal([
      ["notifications", "ntfy", true],
      ["weather", "open-meteo", true],
      ["relay", "shelly", true],
      ["lightPanels", "nanoleaf", true],
    ]);
    const status = (await (await fetch(`${base}/api/status`)).json()) as { services: { registered: number } };
    expect(status.services.registered).to.equal(engine.services.keys().length);
  });

  it("sends to a named channel, reads the weather and drives both relays", async () => {
    const { engine } = running.hearth;
    expect(await engine.notifications?.send({ channel: "alarm", message: "test" })).to.deep.include({ ok: true });
    expect(ntfy.published[0]).to.deep.include({ topic: "home-alarm", authorization: "Bearer tk_env_secret" });

    const forecast = await engine.services
      .getOrThrow<{ daily(days: number): Promise<{ data: unknown[] }> }>("weather")
      .daily(3);
    expect(forecast.data).to.have.length(3);

    const relay = engine.services.getOrThrow<RelayService>("relays");
    await relay.switchOn("kitchen", 1);
    expect(kitchen.switches.get(1)?.output).to.equal(true);
    await relay.switchOn("garage");
    expect(garage.switches.get(0)?.output).to.equal(true);
    garage.press(0);
    await waitFor(
      () => (engine.state.get("relay.garage.0") as { source?: string } | undefined)?.source === "button",
      5000,
      "the button press in state",
    );
    expect(engine.state.get("relay.garage.0")).to.deep.include({ kind: "switch", on: false });
  });

  it("pairs a Nanoleaf panel through the debug API and keeps the token in DATA_DIR", async () => {
    const base = `http://127.0.0.1:${running.hearth.httpPort}`;
    const refused = await fetch(`${base}/api/services/lightPanels/living/pair`, { method: "POST" });
    expect(refused.status).to.equal(409);
    panel.pairingMode = true;
    const paired = await fetch(`${base}/api/services/lightPanels/living/pair`, { method: "POST" });
    expect(paired.status).to.equal(200);
    const [token] = [...panel.tokens];
    const stored = JSON.parse(await readFile(path.join(running.scratch, "data", "nanoleaf-tokens.json"), "utf8"));
    expect(stored).to.deep.equal({ living: token });
    await running.hearth.engine.services.getOrThrow<LightPanelService>("lightPanels").turnOn("living");
    expect(panel.state.on.value).to.equal(true);

    const logs = JSON.stringify(running.hearth.logBuffer.query({ limit: 2500 }));
    const answers = JSON.stringify(await (await fetch(`${base}/api/services`)).json());
    for (const secret of [token, "tk_env_secret", "shelly-env-pw"]) {
      expect(logs, `logs leak ${secret}`).not.to.contain(secret);
      expect(answers, `/api/services leaks ${secret}`).not.to.contain(secret);
    }
    expect(logs).to.contain("/api/v1/***/state");
  });

  it("refuses to start with a bad service variable, naming it", async () => {
    const error = await startHearth({
      env: { SHELLY_DEVICES: "garage=ftp://nowhere", HTTP_AUTH: "false" },
      apiPort: 0,
      httpPort: null,
    }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).problems[0]?.variable).to.equal("SHELLY_DEVICES");
  });
});
