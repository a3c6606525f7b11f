/**
 * The engine's MQTT bus: one broker connection multiplexed over every automation and
 * service (the engine's MqttService implements it; the raw connection is MqttClient).
 */
import type { MqttPayload } from "../domain/automation/trigger.js";

export type MqttHandler = (topic: string, payload: MqttPayload) => void | Promise<void>;

export interface PublishOptions {
  qos?: 0 | 1 | 2;
  retain?: boolean;
}

/** One multiplexed broker connection shared by every automation and service. */
export interface MqttServiceApi {
  readonly isConnected: boolean;
  connect(): Promise<void>;
  subscribe(topic: string, handler: MqttHandler): void;
  /** The broker subscription is dropped when the last handler of `topic` goes. */
  unsubscribe(topic: string, handler: MqttHandler): void;
  publish(topic: string, payload: Record<string, unknown> | string, options?: PublishOptions): void;
  /** Publishes to `{prefix}/{friendlyName}/set`. */
  publishToDevice(friendlyName: string, payload: Record<string, unknown>, options?: PublishOptions): void;
  /** `{prefix}/{friendlyName}`. */
  deviceTopic(friendlyName: string): string;
  disconnect(): Promise<void>;
  /** Running totals since start, read by metrics. */
  readonly stats: { received: number; published: number; reconnects: number };
  /** Connection changes, for readiness, metrics and the web UI banner. Returns an unsubscribe function. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}
