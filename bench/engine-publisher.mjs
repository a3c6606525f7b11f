/**
 * Worker thread of bench/engine.ts: publishes chunks of Zigbee2MQTT-like messages when the
 * main thread asks, so publishing costs nothing on the thread being measured.
 */
import { parentPort, workerData } from "node:worker_threads";
import mqtt from "mqtt";

const { url, topics } = workerData;
const client = await mqtt.connectAsync(url, { clientId: `hearth-bench-pub-${process.pid}`, reconnectPeriod: 0 });

function payload(n) {
  return JSON.stringify({
    battery: 50 + (n % 50),
    linkquality: 90 + (n % 120),
    temperature: 18 + (n % 70) / 10,
    humidity: 40 + (n % 30),
    occupancy: n % 7 === 0,
    voltage: 2900 + (n % 200),
    last_seen: "2026-01-01T00:00:00.000Z",
  });
}

parentPort?.on("message", async (message) => {
  if (message === "close") {
    await client.endAsync();
    parentPort?.postMessage({ closed: true });
    return;
  }
  for (let n = message.start; n < message.start + message.count; n++) {
    client.publish(topics[n % topics.length], payload(n), { qos: 0 });
  }
  // A QoS 1 marker forces every earlier QoS 0 publish out of this client before we answer.
  await client.publishAsync("hearth-bench/flush", "1", { qos: 1 });
  parentPort?.postMessage({ published: message.count });
});
parentPort?.postMessage({ ready: true });
