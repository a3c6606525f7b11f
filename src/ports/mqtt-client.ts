/** Quality of service levels of MQTT. */
export type QoS = 0 | 1 | 2;

/**
 * One connection to an MQTT broker, as the engine's MqttService needs it. The adapter
 * reconnects on its own with backoff; it does not remember subscriptions (the service
 * resubscribes on every connect) and does not queue offline publishes (the service does).
 */
export interface MqttClient {
  readonly connected: boolean;
  /** Starts connecting (and reconnecting). Resolves once the first attempt has ended, connected or not. */
  connect(): Promise<void>;
  subscribe(filters: string[]): void;
  unsubscribe(filters: string[]): void;
  publish(topic: string, payload: string | Buffer, options: { qos: QoS; retain: boolean }): void;
  /** Closes the connection and stops reconnecting. */
  end(): Promise<void>;
  onMessage(listener: (topic: string, payload: Buffer) => void): void;
  onConnectionChange(listener: (connected: boolean) => void): void;
}

export const MQTT_CLIENT = Symbol("MqttClient");
