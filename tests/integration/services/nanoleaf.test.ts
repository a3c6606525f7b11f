import { expect } from "chai";
import { FetchHttpClient } from "../../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { NanoleafLightPanels } from "../../../src/adapters/services/nanoleaf/nanoleaf-light-panels.js";
import { MemoryJsonStore } from "../../../src/adapters/state/memory-json-store.js";
import { ServiceCallError } from "../../../src/domain/automation/service-errors.js";
import { FakeNanoleaf } from "../../support/fake-nanoleaf.js";
import { freePort } from "../../support/network.js";

async function rejection(promise: Promise<unknown>): Promise<ServiceCallError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, "expected a rejection").to.be.instanceOf(ServiceCallError);
  return error as ServiceCallError;
}

describe("Nanoleaf light panels (against a fake panel on loopback)", () => {
  let panel: FakeNanoleaf;
  let logger: MemoryLogger;
  let store: MemoryJsonStore;
  const service = (extra: { tokens?: Record<string, string>; url?: string } = {}) =>
    new NanoleafLightPanels(new FetchHttpClient(logger, { sleep: async () => undefined }), logger, {
      panels: { living: extra.url ?? panel.url },
      tokens: extra.tokens ?? {},
      store,
    });

  beforeEach(async () => {
    panel = await FakeNanoleaf.start();
    logger = new MemoryLogger();
    store = new MemoryJsonStore();
  });
  afterEach(() => panel.close());

  it("pairs in pairing mode, keeps the token in the store, and never logs it", async () => {
    const panels = service();
    await panels.onStart();
    expect(panels.panels()).to.deep.equal([{ name: "living", url: panel.url, paired: false }]);
    const refused = await rejection(panels.pair("living"));
    expect(refused.code).to.equal("SERVICE_NOT_READY");
    expect(refused.message).to.match(/pairing mode/);

    panel.pairingMode = true;
    await panels.pair("living");
    const [token] = [...panel.tokens];
    expect(store.document).to.deep.equal({ living: token });
    expect(panels.panels()[0]?.paired).to.equal(true);
    await panels.turnOn("living");
    expect(panel.state.on.value).to.equal(true);

    // A restart finds the stored token.
    const again = service();
    await again.onStart();
    await again.turnOff("living");
    expect(panel.state.on.value).to.equal(false);

    const everything = JSON.stringify([logger.entries, panels.serviceHealth(), again.serviceHealth()]);
    expect(everything).not.to.contain(token);
    expect(panels.serviceHealth().config.panels).to.deep.equal([
      { name: "living", url: panel.url, paired: true, token: "***" },
    ]);
  });

  it("sets brightness with a duration, hue and saturation, colour temperature, and reads the state", async () => {
    panel.tokens.add("ConfiguredToken0123456789abcdef0");
    const panels = service({ tokens: { living: "ConfiguredToken0123456789abcdef0" } });
    await panels.setBrightness("living", 80, 5);
    expect(panel.state.brightness.value).to.equal(80);
    expect(panel.lastBrightnessDuration).to.equal(5);
    await panels.setHueSaturation("living", 200, 60);
    let state = await panels.getState("living");
    expect(state).to.deep.include({
      name: "living",
      brightness: 80,
      hue: 200,
      saturation: 60,
      colorMode: "hs",
      effect: null,
      model: "NL42",
    });
    await panels.setColorTemperature("living", 2700);
    state = await panels.getState("living");
    expect(state).to.deep.include({ colorTemperature: 2700, colorMode: "ct" });
  });

  it("lists, selects and reads effects, and identifies", async () => {
    panel.tokens.add("ConfiguredToken0123456789abcdef0");
    const panels = service({ tokens: { living: "ConfiguredToken0123456789abcdef0" } });
    expect(await panels.listEffects("living")).to.deep.equal(["Northern Lights", "Fireplace", "Snowfall"]);
    expect(await panels.currentEffect("living")).to.equal(null);
    await panels.selectEffect("living", "Fireplace");
    expect(await panels.currentEffect("living")).to.equal("Fireplace");
    expect((await panels.getState("living")).effect).to.equal("Fireplace");
    const unknown = await rejection(panels.selectEffect("living", "Disco"));
    expect(unknown.code).to.equal("SERVICE_REQUEST_FAILED");
    await panels.identify("living");
    expect(panel.identified).to.equal(1);
  });

  it("refuses bad values, unknown panels and unpaired panels without a request", async () => {
    const panels = service();
    expect((await rejection(panels.turnOn("kitchen"))).code).to.equal("SERVICE_UNKNOWN_DEVICE");
    const unpaired = await rejection(panels.turnOn("living"));
    expect(unpaired.code).to.equal("SERVICE_NOT_READY");
    expect(unpaired.message).to.match(/pair\("living"\)/);
    panel.tokens.add("ConfiguredToken0123456789abcdef0");
    const paired = service({ tokens: { living: "ConfiguredToken0123456789abcdef0" } });
    for (const attempt of [
      () => paired.setBrightness("living", 101),
      () => paired.setBrightness("living", 50, -1),
      () => paired.setHueSaturation("living", 361, 0),
      () => paired.setHueSaturation("living", 0, 101),
      () => paired.setColorTemperature("living", 1000),
      () => paired.selectEffect("living", ""),
    ]) {
      expect((await rejection(Promise.resolve().then(attempt))).code).to.equal("SERVICE_INVALID_ARGUMENT");
    }
    expect(panel.server.requests).to.have.length(0);
  });

  it("reports a refused token as an auth failure and an unreachable panel as unreachable", async () => {
    const panels = service({ tokens: { living: "RevokedToken0123456789abcdef0123" } });
    const refused = await rejection(panels.turnOn("living"));
    expect(refused.code).to.equal("SERVICE_AUTH_FAILED");
    expect(panels.serviceHealth().reachable).to.equal(true);

    const port = await freePort();
    const gone = service({ url: `http://127.0.0.1:${port}`, tokens: { living: "RevokedToken0123456789abcdef0123" } });
    const unreachable = await rejection(gone.turnOn("living"));
    expect(unreachable.code).to.equal("SERVICE_UNREACHABLE");
    expect(gone.serviceHealth().reachable).to.equal(false);
    expect(JSON.stringify([logger.entries, unreachable.message])).not.to.contain("RevokedToken0123456789abcdef0123");
  });

  it("moves a broken token file aside instead of trusting it", async () => {
    store = new MemoryJsonStore(["not", "a", "map"]);
    const panels = service();
    await panels.onStart();
    expect(store.movedAside).to.have.length(1);
    expect(panels.panels()[0]?.paired).to.equal(false);
  });
});
