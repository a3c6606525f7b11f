/**
 * Child process of bench/engine.ts: publishes chunks of Zigbee2MQTT-like messages when the
 * parent asks (over IPC), in a process of its own so that the parent's CPU time
 * (process.cpuUsage) is the consumer's alone.
 */
import mqtt from "mqtt";

const [url, topicsJson] = [process.env.BENCH_PUBLISHER_URL, process.env.BENCH_PUBLISHER_TOPICS];
const topics = JSON.parse(topicsJson ?? "[]");
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

process.on("message", async (message) => {
  if (message === "close") {
    await client.endAsync();
    process.send?.({ closed: true }, () => process.exit(0));
    return;
  }
  for (let n = message.start; n < message.start + message.count; n++) {
    client.publish(topics[n % topics.length], payload(n), { qos: 0 });
  }
  // A QoS 1 marker forces every earlier QoS 0 publish out of this client before we answer.
  await client.publishAsync("hearth-bench/flush", "1", { qos: 1 });
  process.send?.({ published: message.count });
});
process.send?.({ ready: true });
