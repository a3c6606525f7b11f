import { expect } from "chai";
import { FetchHttpClient } from "../../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { MqttJsClient } from "../../../src/adapters/mqtt/mqttjs-client.js";
import { digestAuthorization, parseDigestChallenge } from "../../../src/adapters/services/shelly/shelly-digest-auth.js";
import { ShellyRelayService } from "../../../src/adapters/services/shelly/shelly-relay-service.js";
import { MqttService } from "../../../src/application/automation/mqtt-service.js";
import { StateManager } from "../../../src/application/automation/state-manager.js";
import { mirrorRelayStatus } from "../../../src/composition/relay-state.js";
import { ServiceCallError } from "../../../src/domain/automation/service-errors.js";
import type { RelayStatusChange } from "../../../src/ports/relay-service.js";
import { FakeMqttService } from "../../support/fake-mqtt-service.js";
import { FakeTime, waitFor } from "../../support/engine-fakes.js";
import { FakeShellyHttp, FakeShellyMqtt, ShellyDeviceModel } from "../../support/fake-shelly.js";
import { freePort } from "../../support/network.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../../support/test-servers.js";

async function rejection(promise: Promise<unknown>): Promise<ServiceCallError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, "expected a rejection").to.be.instanceOf(ServiceCallError);
  return error as ServiceCallError;
}

describe("Shelly relays", () => {
  let logger: MemoryLogger;
  beforeEach(() => {
    logger = new MemoryLogger();
  });

  describe("digest authentication", () => {
    it("answers a SHA-256 challenge as RFC 7616 computes it", () => {
      const challenge = parseDigestChallenge(
        'Digest qop="auth", realm="shellypro4pm-f008d1d8b8b8", nonce="60dc59c6", algorithm=SHA-256',
      );
      expect(challenge).to.deep.equal({
        realm: "shellypro4pm-f008d1d8b8b8",
        nonce: "60dc59c6",
        qop: "auth",
        algorithm: "SHA-256",
      });
      const header = digestAuthorization(challenge!, {
        method: "POST",
        uri: "/rpc/Switch.Set",
        username: "admin",
        password: "secret",
        nonceCount: 1,
        cnonce: "abc",
      });
      expect(header).to.match(
        /^Digest username="admin", realm="shellypro4pm-f008d1d8b8b8", nonce="60dc59c6", uri="\/rpc\/Switch.Set", algorithm=SHA-256, response="[0-9a-f]{64}", qop=auth, nc=00000001, cnonce="abc"$/,
      );
      expect(parseDigestChallenge("Basic realm=x")).to.equal(null);
    });
  });

  describe("over HTTP RPC (fake device on loopback)", () => {
    let device: ShellyDeviceModel;
    let fake: FakeShellyHttp;
    const relay = (
      address: string,
      options: {
        password?: string;
        devices?: Record<string, { transport: "http"; address: string; covers?: number[]; switches?: number[] }>;
      } = {},
    ) =>
      new ShellyRelayService(
        new FetchHttpClient(logger, { sleep: async () => undefined }),
        new FakeMqttService(),
        logger,
        {
          devices: options.devices ?? { kitchen: { transport: "http", address, switches: [0, 1] } },
          password: options.password,
        },
      );

    beforeEach(async () => {
      device = new ShellyDeviceModel("shellypro2-abc", { switches: [0, 1], covers: [] });
      fake = await FakeShellyHttp.start(device, { password: "s3cret-pw" });
    });
    afterEach(() => fake.close());

    it("switches any channel with digest auth and reads its status", async () => {
      const service = relay(fake.url, { password: "s3cret-pw" });
      const changes: RelayStatusChange[] = [];
      service.onStatusChange((change) => changes.push(change));
      await service.switchOn("kitchen", 1);
      expect(device.switches.get(1)?.output).to.equal(true);
      expect(device.switches.get(0)?.output).to.equal(false);
      expect(service.lastKnownSwitch("kitchen", 1)).to.deep.include({ on: true });
      await service.toggleSwitch("kitchen", 1);
      expect(device.switches.get(1)?.output).to.equal(false);
      await service.switchOff("kitchen");
      const status = await service.getSwitchStatus("kitchen", 1);
      expect(status).to.deep.include({ device: "kitchen", channel: 1, on: false, voltageV: 230.1, temperatureC: 41.2 });
      expect(changes.map((change) => change.kind === "switch" && change.status.on)).to.deep.equal([
        true,
        false,
        false,
        false,
      ]);
      expect(device.calls.map((call) => call.method)).to.deep.equal([
        "Switch.Set",
        "Switch.Toggle",
        "Switch.Set",
        "Switch.GetStatus",
      ]);
      // The challenge is remembered: one 401 for the first call, none after.
      expect(fake.server.requests.filter((request) => !request.headers.authorization)).to.have.length(1);
      expect(JSON.stringify(logger.entries)).not.to.contain("s3cret-pw");
      expect(JSON.stringify(service.serviceHealth())).not.to.contain("s3cret-pw");
    });

    it("takes the password from user:password@ in the device URL and keeps it out of what it reports", async () => {
      const service = relay(fake.url.replace("http://", "http://admin:s3cret-pw@"));
      await service.switchOn("kitchen");
      expect(device.switches.get(0)?.output).to.equal(true);
      const health = service.serviceHealth();
      expect(JSON.stringify(health)).not.to.contain("s3cret-pw");
      expect(health.config.password).to.equal("***");
      expect(health.reachable).to.equal(true);
    });

    it("rejects with SERVICE_AUTH_FAILED on a wrong or missing password, changing nothing", async () => {
      const wrong = await rejection(relay(fake.url, { password: "nope" }).switchOn("kitchen"));
      expect(wrong.code).to.equal("SERVICE_AUTH_FAILED");
      const missing = await rejection(relay(fake.url).switchOn("kitchen"));
      expect(missing.code).to.equal("SERVICE_AUTH_FAILED");
      expect(missing.message).to.match(/SHELLY_PASSWORD/);
      expect(device.calls).to.have.length(0);
    });

    it("drives covers: open, close, stop, go to position, status", async () => {
      const coverDevice = new ShellyDeviceModel("shellyplus2pm-cov", { covers: [0] });
      const coverFake = await FakeShellyHttp.start(coverDevice);
      try {
        const service = relay("", { devices: { blinds: { transport: "http", address: coverFake.url, covers: [0] } } });
        expect(service.devices()).to.deep.equal([
          { name: "blinds", transport: "http", address: coverFake.url, switches: [], covers: [0] },
        ]);
        await service.openCover("blinds");
        await service.setCoverPosition("blinds", 40);
        await service.stopCover("blinds");
        expect(await service.getCoverStatus("blinds")).to.deep.include({ state: "stopped", position: 40 });
        await service.closeCover("blinds");
        expect((await service.getCoverStatus("blinds")).position).to.equal(0);
        expect(coverDevice.calls.map((call) => call.method)).to.deep.equal([
          "Cover.Open",
          "Cover.GoToPosition",
          "Cover.Stop",
          "Cover.GetStatus",
          "Cover.Close",
          "Cover.GetStatus",
        ]);
        expect(coverDevice.calls[1]?.params).to.deep.equal({ id: 0, pos: 40 });
        const bad = await rejection(service.setCoverPosition("blinds", 101));
        expect(bad.code).to.equal("SERVICE_INVALID_ARGUMENT");
      } finally {
        await coverFake.close();
      }
    });

    it("passes the device's RPC error on, and refuses unknown devices and channels without a request", async () => {
      const service = relay(fake.url, { password: "s3cret-pw" });
      const rpc = await rejection(service.switchOn("kitchen", 5));
      expect(rpc.code).to.equal("SERVICE_REQUEST_FAILED");
      expect(rpc.message).to.match(/Argument 'id', value 5 not found/);
      const before = fake.server.requests.length;
      expect((await rejection(service.switchOn("garage"))).code).to.equal("SERVICE_UNKNOWN_DEVICE");
      expect((await rejection(service.switchOn("kitchen", -1))).code).to.equal("SERVICE_INVALID_ARGUMENT");
      expect((await rejection(service.setSwitch("kitchen", "on" as unknown as boolean))).code).to.equal(
        "SERVICE_INVALID_ARGUMENT",
      );
      expect(fake.server.requests.length).to.equal(before);
    });

    it("rejects with SERVICE_UNREACHABLE when the device is off the network, and reports it", async () => {
      const port = await freePort();
      const service = relay(`http://127.0.0.1:${port}`);
      const error = await rejection(service.switchOn("kitchen"));
      expect(error.code).to.equal("SERVICE_UNREACHABLE");
      const health = service.serviceHealth();
      expect(health.reachable).to.equal(false);
      expect(health.lastError).to.match(/^kitchen: .*unreachable/);
    });
  });

  describe("over MQTT RPC (fake device on a real broker)", () => {
    let broker: TestBroker;
    let mqtt: MqttService;
    let device: ShellyDeviceModel;
    let fake: FakeShellyMqtt;
    let prefix: string;
    let service: ShellyRelayService;

    before(async () => {
      broker = await acquireBroker("shelly-mqtt");
    });
    after(() => broker.release());

    beforeEach(async () => {
      prefix = uniqueTopicPrefix("shellyplus1");
      mqtt = new MqttService(new MqttJsClient({ url: broker.url }, logger), logger, { zigbeePrefix: "z2m" });
      await mqtt.connect();
      device = new ShellyDeviceModel("shellyplus1-abc", { switches: [0], covers: [] });
      fake = await FakeShellyMqtt.start(broker.url, prefix, device);
      service = new ShellyRelayService(new FetchHttpClient(logger), mqtt, logger, {
        devices: { garage: { transport: "mqtt", address: prefix } },
        clientId: `${prefix}/hearth`,
      });
      service.onStart();
    });
    afterEach(async () => {
      service.onStop();
      await fake.close();
      await mqtt.disconnect();
    });

    it("sends requests with src and id and reads the answers", async () => {
      const status = await service.getSwitchStatus("garage");
      expect(status).to.deep.include({ device: "garage", channel: 0, on: false });
      await service.switchOn("garage");
      expect(device.switches.get(0)?.output).to.equal(true);
      await service.toggleSwitch("garage");
      expect(device.switches.get(0)?.output).to.equal(false);
      const error = await rejection(service.switchOn("garage", 3));
      expect(error.code).to.equal("SERVICE_REQUEST_FAILED");
    });

    it("keeps and delivers NotifyStatus changes, such as a button press", async () => {
      await service.getSwitchStatus("garage"); // the event subscriptions are in place once a round trip is done
      const changes: RelayStatusChange[] = [];
      service.onStatusChange((change) => changes.push(change));
      device.press(0);
      await waitFor(() => changes.length > 0, 5000, "the NotifyStatus event");
      expect(changes[0]).to.deep.include({ kind: "switch", device: "garage", channel: 0 });
      expect(changes[0]?.status).to.deep.include({ on: true, source: "button" });
      expect(service.lastKnownSwitch("garage")).to.deep.include({ on: true, source: "button" });
    });
    it("updates relay.<device>.<channel> with a power figure reported alone, without firing its state trigger", async () => {
      await service.getSwitchStatus("garage");
      const state = new StateManager({ persist: false }, { logger });
      const fired: unknown[] = [];
      state.onChange("relay.garage.0", (_key, value) => fired.push(value));
      const stop = mirrorRelayStatus(service, state);
      const changes: RelayStatusChange[] = [];
      service.onStatusChange((change) => changes.push(change));
      try {
        device.press(0);
        await waitFor(() => changes.length === 1, 5000, "the button press");
        device.meter(0, 1250.5);
        await waitFor(() => changes.length === 2, 5000, "the power report");
        expect(changes[1]?.status).to.deep.include({ on: true, powerW: 1250.5 });
        expect(state.get("relay.garage.0")).to.deep.equal({
          kind: "switch",
          on: true,
          powerW: 1250.5,
          source: "button",
        });
        device.meter(0, 980);
        await waitFor(() => changes.length === 3, 5000, "the second power report");
        expect(state.get("relay.garage.0")).to.deep.include({ powerW: 980 });
        expect(fired).to.have.length(1);
      } finally {
        stop();
      }
    });
  });

  describe("over MQTT RPC, device silent (fake time)", () => {
    it("rejects with SERVICE_UNREACHABLE when no answer comes in time, and cancels calls at stop", async () => {
      const mqtt = new FakeMqttService();
      const time = new FakeTime();
      const service = new ShellyRelayService(new FetchHttpClient(logger), mqtt, logger, {
        devices: { garage: { transport: "mqtt", address: "shellyplus1-abc" } },
        clientId: "hearth-test",
        timer: time,
        timeoutMs: 5000,
      });
      service.onStart();
      expect([...mqtt.subscriptions.keys()]).to.have.members([
        "hearth-test/rpc",
        "shellyplus1-abc/events/rpc",
        "shellyplus1-abc/status/+",
      ]);
      const call = service.switchOn("garage");
      expect(mqtt.published[0]).to.deep.include({ topic: "shellyplus1-abc/rpc" });
      expect(mqtt.published[0]?.payload).to.deep.include({
        src: "hearth-test",
        method: "Switch.Set",
        params: { id: 0, on: true },
      });
      time.advance(5000);
      const error = await rejection(call);
      expect(error.code).to.equal("SERVICE_UNREACHABLE");
      expect(error.message).to.match(/did not answer Switch.Set/);

      const pending = service.toggleSwitch("garage");
      service.onStop();
      expect((await rejection(pending)).code).to.equal("SERVICE_UNREACHABLE");
      expect(mqtt.subscriptions.size).to.equal(0);
    });

    it("subscribes to the answer topic on first use when onStart was never called", async () => {
      const mqtt = new FakeMqttService();
      const time = new FakeTime();
      const service = new ShellyRelayService(new FetchHttpClient(logger), mqtt, logger, {
        devices: { garage: { transport: "mqtt", address: "shellyplus1-abc" } },
        clientId: "hearth-lazy",
        timer: time,
      });
      const call = service.switchOn("garage");
      expect(mqtt.subscriptions.has("hearth-lazy/rpc")).to.equal(true);
      const request = mqtt.published[0]?.payload as { id: number };
      await mqtt.emit("hearth-lazy/rpc", {
        id: request.id,
        src: "shellyplus1-abc",
        dst: "hearth-lazy",
        result: { was_on: false },
      });
      await call;
      expect(service.lastKnownSwitch("garage")?.on).to.equal(true);
      service.onStop();
      expect(mqtt.subscriptions.size).to.equal(0);
    });

    it("takes status from <prefix>/status/<component> messages", async () => {
      const mqtt = new FakeMqttService();
      const service = new ShellyRelayService(new FetchHttpClient(logger), mqtt, logger, {
        devices: { blinds: { transport: "mqtt", address: "shellyplus2pm-x", covers: [0] } },
      });
      service.onStart();
      await mqtt.emit("shellyplus2pm-x/status/cover:0", { id: 0, state: "opening", current_pos: 30, source: "button" });
      expect(service.lastKnownCover("blinds")).to.deep.include({ state: "opening", position: 30 });
      await mqtt.emit("shellyplus2pm-x/status/cover:0", { id: 0, state: "bogus" });
      expect(service.lastKnownCover("blinds")?.state).to.equal("opening");
      service.onStop();
    });
  });
});
