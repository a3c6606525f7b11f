import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import type { MqttHandler } from "../../../src/ports/mqtt-bus.js";
import { MqttService, parsePayload } from "../../../src/application/automation/mqtt-service.js";
import { FakeMqttClient } from "../../support/engine-fakes.js";

function setup(options: { connect?: boolean; limit?: number } = {}) {
  const client = new FakeMqttClient(options.connect ?? true);
  const logger = new MemoryLogger();
  const service = new MqttService(client, logger, {
    zigbeePrefix: "z2m",
    ...(options.limit ? { offlineQueueLimit: options.limit } : {}),
  });
  return { client, logger, service };
}

describe("MqttService", () => {
  it("multiplexes handlers over one broker subscription per filter", async () => {
    const { client, service } = setup();
    await service.connect();
    const seen: string[] = [];
    const first: MqttHandler = (topic) => void seen.push(`first:${topic}`);
    const second: MqttHandler = (topic) => void seen.push(`second:${topic}`);
    service.subscribe("home/+/motion", first);
    service.subscribe("home/+/motion", second);
    expect(client.subscribed).to.deep.equal([["home/+/motion"]]);
    client.deliver("home/hall/motion", { occupancy: true });
    expect(seen).to.deep.equal(["first:home/hall/motion", "second:home/hall/motion"]);

    service.unsubscribe("home/+/motion", first);
    expect(client.unsubscribed).to.deep.equal([]);
    service.unsubscribe("home/+/motion", second);
    expect(client.unsubscribed).to.deep.equal([["home/+/motion"]]);
    client.deliver("home/hall/motion", { occupancy: true });
    expect(seen).to.have.length(2);
  });

  it("parses JSON once and only when a handler matches", async () => {
    const { client, service } = setup();
    await service.connect();
    const payloads: unknown[] = [];
    service.subscribe("a/#", (_topic, payload) => void payloads.push(payload));
    service.subscribe("a/b", (_topic, payload) => void payloads.push(payload));
    client.deliver("a/b", { on: true });
    expect(payloads).to.have.length(2);
    expect(payloads[0]).to.equal(payloads[1]);
    const originalParse = JSON.parse;
    let parses = 0;
    JSON.parse = ((text: string) => {
      parses++;
      return originalParse(text);
    }) as typeof JSON.parse;
    try {
      client.deliver("other/topic", { on: true });
    } finally {
      JSON.parse = originalParse;
    }
    expect(parses).to.equal(0);
    expect(service.stats.received).to.equal(2);
  });

  it("hands non-object payloads over as { raw }", () => {
    expect(parsePayload(Buffer.from('{"a":1}'))).to.deep.equal({ a: 1 });
    expect(parsePayload(Buffer.from("ON"))).to.deep.equal({ raw: "ON" });
    expect(parsePayload(Buffer.from("42"))).to.deep.equal({ raw: "42" });
    expect(parsePayload(Buffer.from("[1,2]"))).to.deep.equal({ raw: "[1,2]" });
    expect(parsePayload(Buffer.from("{broken"))).to.deep.equal({ raw: "{broken" });
    expect(parsePayload(Buffer.from("null"))).to.deep.equal({ raw: "null" });
    expect(parsePayload(Buffer.from(""))).to.deep.equal({ raw: "" });
  });

  it("isolates a failing handler (sync and async) and logs it", async () => {
    const { client, logger, service } = setup();
    await service.connect();
    let reached = 0;
    service.subscribe("x", () => {
      throw new Error("boom");
    });
    service.subscribe("x", async () => {
      throw new Error("async boom");
    });
    service.subscribe("x", () => {
      reached++;
    });
    client.deliver("x", "hi");
    await new Promise((resolve) => setImmediate(resolve));
    expect(reached).to.equal(1);
    expect(logger.at("error").map((entry) => entry.msg)).to.deep.equal(["MQTT handler failed", "MQTT handler failed"]);
  });

  it("publishes JSON with qos and retain, and to devices under the prefix", async () => {
    const { client, service } = setup();
    await service.connect();
    service.publish("a/b", { on: true }, { qos: 1, retain: true });
    service.publish("a/c", "text");
    service.publishToDevice("lamp", { state: "ON" });
    expect(service.deviceTopic("lamp")).to.equal("z2m/lamp");
    expect(client.published).to.deep.equal([
      { topic: "a/b", payload: '{"on":true}', qos: 1, retain: true },
      { topic: "a/c", payload: "text", qos: 0, retain: false },
      { topic: "z2m/lamp/set", payload: '{"state":"ON"}', qos: 0, retain: false },
    ]);
    expect(service.stats.published).to.equal(3);
  });

  it("queues publishes while offline (bounded, oldest dropped) and sends them on connect", async () => {
    const { client, logger, service } = setup({ connect: false, limit: 3 });
    await service.connect();
    expect(service.isConnected).to.equal(false);
    for (let n = 1; n <= 5; n++) service.publish("q", { n });
    expect(client.published).to.deep.equal([]);
    expect(logger.at("warn").some((entry) => entry.msg.includes("offline queue is full"))).to.equal(true);
    client.setConnected(true);
    expect(client.published.map((message) => JSON.parse(message.payload).n)).to.deep.equal([3, 4, 5]);
  });

  it("resubscribes every filter on reconnect and counts reconnects", async () => {
    const { client, service } = setup();
    const changes: boolean[] = [];
    service.onConnectionChange((connected) => changes.push(connected));
    service.subscribe("early/topic", () => {});
    await service.connect();
    expect(client.subscribed).to.deep.equal([["early/topic"]]);
    service.subscribe("later/+", () => {});
    client.setConnected(false);
    client.setConnected(true);
    expect(client.subscribed.at(-1)).to.have.members(["early/topic", "later/+"]);
    expect(service.stats.reconnects).to.equal(1);
    expect(changes).to.deep.equal([true, false, true]);
  });

  it("rejects invalid filters", () => {
    const { service } = setup();
    expect(() => service.subscribe("a/#/b", () => {})).to.throw(/Invalid MQTT topic filter/);
    expect(() => service.subscribe("", () => {})).to.throw(/empty/);
  });
});
