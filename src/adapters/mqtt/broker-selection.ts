import type { Logger } from "../../ports/logger.js";
import { type EmbeddedBroker, isPortAnswering, startEmbeddedBroker } from "./embedded-broker.js";

export interface BrokerSettings {
  MQTT_HOST?: string | undefined;
  MQTT_PORT: number;
}

export interface BrokerChoice {
  url: string;
  /** The broker this process started, to be closed at stop; null when an external one is used. */
  embedded: EmbeddedBroker | null;
}

/**
 * MQTT_HOST set: use it. Unset: use a broker already answering on localhost:MQTT_PORT, or
 * start an embedded aedes broker there. Logs which one was chosen.
 */
export async function resolveBroker(config: BrokerSettings, logger: Logger): Promise<BrokerChoice> {
  if (config.MQTT_HOST) {
    const url = `mqtt://${config.MQTT_HOST}:${config.MQTT_PORT}`;
    logger.info("Using the configured MQTT broker", { url });
    return { url, embedded: null };
  }
  if (await isPortAnswering("127.0.0.1", config.MQTT_PORT)) {
    const url = `mqtt://127.0.0.1:${config.MQTT_PORT}`;
    logger.info("MQTT_HOST unset; using the broker already answering on localhost", { url });
    return { url, embedded: null };
  }
  const embedded = await startEmbeddedBroker(config.MQTT_PORT, "127.0.0.1");
  const url = `mqtt://${embedded.host}:${embedded.port}`;
  logger.info("MQTT_HOST unset and no broker on localhost; started an embedded broker", { url });
  return { url, embedded };
}
