import { expect } from "chai";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import { resolveBroker } from "../../../src/adapters/mqtt/broker-selection.js";
import { startEmbeddedBroker } from "../../../src/adapters/mqtt/embedded-broker.js";
import { freePort } from "../../support/own-broker.js";

describe("resolveBroker", () => {
  it("uses MQTT_HOST when set, without probing", async () => {
    const logger = new MemoryLogger();
    const choice = await resolveBroker({ MQTT_HOST: "broker.lan", MQTT_PORT: 1884 }, logger);
    expect(choice).to.deep.equal({ url: "mqtt://broker.lan:1884", embedded: null });
    expect(logger.at("info")[0]?.msg).to.match(/configured/);
  });

  it("uses a broker already answering on localhost", async () => {
    const existing = await startEmbeddedBroker(0);
    try {
      const choice = await resolveBroker({ MQTT_PORT: existing.port }, new MemoryLogger());
      expect(choice).to.deep.equal({ url: `mqtt://127.0.0.1:${existing.port}`, embedded: null });
    } finally {
      await existing.close();
    }
  });

  it("starts an embedded broker when nothing answers, and reports it so stop can close it", async () => {
    const port = await freePort();
    const logger = new MemoryLogger();
    const choice = await resolveBroker({ MQTT_PORT: port }, logger);
    try {
      expect(choice.url).to.equal(`mqtt://127.0.0.1:${port}`);
      expect(choice.embedded?.port).to.equal(port);
      expect(logger.at("info").at(-1)?.msg).to.match(/embedded broker/);
    } finally {
      await choice.embedded?.close();
    }
  });
});
