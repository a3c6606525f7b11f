import { expect } from "chai";
import mqtt, { type MqttClient as PlainClient } from "mqtt";
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { MqttJsClient } from "../../src/adapters/mqtt/mqttjs-client.js";
import { waitFor } from "../support/engine-fakes.js";
import { acquireBroker, type TestBroker, uniqueTopicPrefix } from "../support/test-servers.js";

// A device on the network, or anything with the broker's password, can publish a message of up to
// 256 MB to a topic Hearth subscribes to; Hearth drops what is over MQTT_MAX_MESSAGE_BYTES unread.
describe("MQTT messages larger than MQTT_MAX_MESSAGE_BYTES, through a real broker", function () {
  this.timeout(60_000);
  let broker: TestBroker;
  let publisher: PlainClient;
  const clients: MqttJsClient[] = [];

  before(async () => {
    broker = await acquireBroker("mqtt-message-size");
    publisher = await mqtt.connectAsync(broker.url);
  });

  after(async () => {
    for (const client of clients) await client.end();
    await publisher?.endAsync();
    await broker?.release();
  });

  async function subscriber(topic: string, maxMessageBytes?: number) {
    const logger = new MemoryLogger();
    const client = new MqttJsClient(
      { url: broker.url, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) },
      logger,
    );
    clients.push(client);
    const received: { topic: string; bytes: number }[] = [];
    const probe = `${topic.replace(/#$/, "")}probe`;
    let subscribed = false;
    client.onMessage((from, payload) => {
      if (from === probe) subscribed = true;
      else received.push({ topic: from, bytes: payload.length });
    });
    await client.connect();
    expect(client.connected).to.equal(true);
    client.subscribe([topic]);
    // Published until one comes back: the subscription is then in place.
    await waitFor(() => {
      publisher.publish(probe, "?");
      return subscribed;
    });
    return { client, logger, received };
  }

  it("drops a 17 MB message by default, logs its topic, and goes on with the next one", async () => {
    const prefix = uniqueTopicPrefix("size");
    const { client, logger, received } = await subscriber(`${prefix}/#`);
    await publisher.publishAsync(`${prefix}/camera/snapshot`, Buffer.alloc(17 * 1024 * 1024, 1));
    await publisher.publishAsync(`${prefix}/kitchen/temperature`, '{"temperature":21.5}');
    await waitFor(() => received.length > 0);
    expect(received).to.deep.equal([{ topic: `${prefix}/kitchen/temperature`, bytes: 20 }]);
    const warning = logger.at("warn").find((entry) => /MQTT_MAX_MESSAGE_BYTES/.test(entry.msg));
    expect(warning?.fields).to.include({ topic: `${prefix}/camera/snapshot`, maxBytes: 16 * 1024 * 1024 });
    expect(warning?.fields.bytes).to.be.greaterThan(17 * 1024 * 1024);
    expect(client.connected).to.equal(true);
  });

  it("passes a message of the limit and drops one byte more", async () => {
    const prefix = uniqueTopicPrefix("size");
    const topic = `${prefix}/bridge/devices`;
    // The packet around the payload: one byte of type, three of length, two of topic length, the topic.
    const frame = 1 + 3 + 2 + Buffer.byteLength(topic);
    const { logger, received } = await subscriber(`${prefix}/#`, 65_536);
    await publisher.publishAsync(topic, Buffer.alloc(65_536 - frame + 1));
    await publisher.publishAsync(topic, Buffer.alloc(65_536 - frame));
    await waitFor(() => received.length > 0);
    expect(received).to.deep.equal([{ topic, bytes: 65_536 - frame }]);
    expect(logger.at("warn").filter((entry) => /MQTT_MAX_MESSAGE_BYTES/.test(entry.msg))).to.have.length(1);
  });
});
