import { expect } from "chai";
import { Automation, type Trigger } from "hearth";
import { createTestEngine, FakeLightPanels, FakeRelays, FakeWeather, type TestEngine } from "hearth/testing";

interface Weather {
  current(): Promise<{ data: { temperature: number; time: Date }; stale: boolean }>;
}
interface Relays {
  switchOn(device: string, channel?: number): Promise<void>;
  onStatusChange(listener: (change: { device: string; status: { on: boolean; source?: string } }) => void): () => void;
}
interface Panels {
  setHueSaturation(name: string, hue: number, saturation: number): Promise<void>;
  turnOn(name: string): Promise<void>;
}

/** Frost protection: below 2 °C the greenhouse heater goes on and the panel turns blue. */
class FrostGuard extends Automation {
  readonly name = "frost-guard";
  readonly triggers: Trigger[] = [{ type: "cron", expression: "*/30 * * * *" }];
  override readonly requiredServices = ["weather", "relay", "lightPanels"];
  private stopListening: (() => void) | undefined;

  override async onStart(): Promise<void> {
    this.stopListening = this.require<Relays>("relay").onStatusChange((change) => {
      if (change.status.source === "button") this.state.set(`manual.${change.device}`, change.status.on);
    });
  }

  override async onStop(): Promise<void> {
    this.stopListening?.();
  }

  async execute(): Promise<void> {
    const weather = await this.require<Weather>("weather").current();
    this.state.set("frost.checkedAt", weather.data.time.toISOString());
    if (weather.data.temperature >= 2) return;
    await this.require<Relays>("relay").switchOn("greenhouse-heater");
    const panels = this.require<Panels>("lightPanels");
    await panels.turnOn("hall");
    await panels.setHueSaturation("hall", 220, 80);
  }
}

describe("fake services of the test kit", () => {
  let t: TestEngine | undefined;
  afterEach(() => t?.stop());

  it("drives an automation through weather, relays and light panels, on the kit's clock", async () => {
    const weather = new FakeWeather({ temperature: 5 });
    const relays = new FakeRelays(["greenhouse-heater", { name: "garage", covers: [0] }]);
    const panels = new FakeLightPanels(["hall"]);
    t = await createTestEngine({
      automations: [FrostGuard],
      now: "2026-12-01T03:00:00Z",
      services: { weather, relay: relays, lightPanels: panels },
    });
    await t.advance("30m");
    expect(relays.isOn("greenhouse-heater")).to.equal(false);
    expect(t.state.get("frost.checkedAt")).to.equal("2026-12-01T03:30:00.000Z");

    weather.set({ temperature: -1 });
    await t.advance("30m");
    expect(relays.isOn("greenhouse-heater")).to.equal(true);
    expect(panels.state("hall")).to.include({ on: true, hue: 220, saturation: 80, colorMode: "hs" });
    expect(t.serviceCalls.map((call) => `${call.service}.${call.method}`)).to.include.members([
      "relay.switchOn",
      "lightPanels.setHueSaturation",
    ]);

    relays.press("greenhouse-heater", false);
    expect(t.state.get("manual.greenhouse-heater")).to.equal(false);
  });

  it("rejects what the real services reject: unknown devices, out-of-range values, a provider that is down", async () => {
    const relays = new FakeRelays(["heater"]);
    const panels = new FakeLightPanels(["hall"]);
    const weather = new FakeWeather().fail();
    const errors: string[] = [];
    const keep = (promise: Promise<unknown>) => promise.then(undefined, (error: Error) => errors.push(error.message));
    await keep(relays.switchOn("toaster"));
    await keep(relays.setCoverPosition("heater", 120));
    await keep(panels.setBrightness("hall", 101));
    await keep(panels.selectEffect("hall", "Disco"));
    await keep(panels.turnOn("attic"));
    await keep(weather.current());
    expect(errors).to.deep.equal([
      'Unknown relay device "toaster" (known: heater)',
      "Cover position must be 0 to 100, got 120",
      "brightness must be 0 to 100, got 101",
      'Panel "hall" has no effect "Disco"',
      'Unknown light panel "attic" (known: hall)',
      "Weather provider unreachable",
    ]);
    weather.fail(null);
    expect((await weather.current()).stale).to.equal(false);
  });

  it("keeps switch, cover and panel state as commands leave it", async () => {
    const relays = new FakeRelays([{ name: "garage", switches: [0, 1], covers: [0] }]);
    await relays.toggleSwitch("garage", 1);
    expect(relays.isOn("garage", 1)).to.equal(true);
    expect(relays.isOn("garage", 0)).to.equal(false);
    await relays.setCoverPosition("garage", 40);
    expect(await relays.getCoverStatus("garage")).to.include({ state: "stopped", position: 40 });
    await relays.closeCover("garage");
    expect(relays.lastKnownCover("garage")).to.include({ state: "closed", position: 0 });
    expect(relays.devices()).to.deep.equal([
      { name: "garage", transport: "mqtt", address: "fake/garage", switches: [0, 1], covers: [0] },
    ]);

    const panels = new FakeLightPanels(["hall"]);
    await panels.selectEffect("hall", "Forest");
    expect(await panels.currentEffect("hall")).to.equal("Forest");
    await panels.setColorTemperature("hall", 2700);
    expect(await panels.getState("hall")).to.include({ colorMode: "ct", colorTemperature: 2700, effect: null });
    await panels.identify("hall");
    expect(panels.identified).to.deep.equal(["hall"]);
  });
});
