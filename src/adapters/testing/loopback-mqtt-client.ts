import { topicMatches } from "../../domain/automation/topic-filter.js";
import type { MqttClient, QoS } from "../../ports/mqtt-client.js";

/** A message an automation (or service) published on the fake bus. */
export interface PublishedMessage {
  topic: string;
  /** Parsed JSON when the payload is JSON, else the text. */
  payload: unknown;
  /** The payload as sent. */
  raw: string;
  qos: QoS;
  retain: boolean;
}

/**
 * An MQTT client with the broker inside: what the engine publishes is recorded and, like a
 * broker, delivered back to matching subscriptions; `deliver()` plays a device publishing.
 * Retained messages are kept and delivered on subscribe, as a broker would.
 */
export class LoopbackMqttClient implements MqttClient {
  connected = false;
  readonly published: PublishedMessage[] = [];
  private readonly filters = new Set<string>();
  private readonly retained = new Map<string, string>();
  private readonly messageListeners: ((topic: string, payload: Buffer) => void)[] = [];
  private readonly connectionListeners: ((connected: boolean) => void)[] = [];

  async connect(): Promise<void> {
    this.setConnected(true);
  }

  async end(): Promise<void> {
    this.setConnected(false);
  }

  subscribe(filters: string[]): void {
    for (const filter of filters) {
      this.filters.add(filter);
      for (const [topic, payload] of this.retained) if (topicMatches(filter, topic)) this.emit(topic, payload);
    }
  }

  unsubscribe(filters: string[]): void {
    for (const filter of filters) this.filters.delete(filter);
  }

  publish(topic: string, payload: string | Buffer, options: { qos: QoS; retain: boolean }): void {
    const raw = payload.toString();
    this.published.push({ topic, payload: parseJson(raw), raw, ...options });
    this.route(topic, raw, options.retain);
  }

  onMessage(listener: (topic: string, payload: Buffer) => void): void {
    this.messageListeners.push(listener);
  }

  onConnectionChange(listener: (connected: boolean) => void): void {
    this.connectionListeners.push(listener);
  }

  /** A device (or anything outside the engine) publishing `payload` on `topic`. */
  deliver(topic: string, payload: unknown, options: { retain?: boolean } = {}): void {
    const raw =
      typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString() : JSON.stringify(payload);
    this.route(topic, raw, options.retain ?? false);
  }

  /** Topic filters the engine is subscribed to. */
  get subscriptions(): string[] {
    return [...this.filters].sort();
  }

  private route(topic: string, raw: string, retain: boolean): void {
    if (retain) {
      if (raw === "") this.retained.delete(topic);
      else this.retained.set(topic, raw);
    }
    if (!this.connected) return;
    if ([...this.filters].some((filter) => topicMatches(filter, topic))) this.emit(topic, raw);
  }

  private emit(topic: string, raw: string): void {
    for (const listener of this.messageListeners) listener(topic, Buffer.from(raw));
  }

  private setConnected(connected: boolean): void {
    this.connected = connected;
    for (const listener of this.connectionListeners) listener(connected);
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // Not JSON: the test sees the text.
    return raw;
  }
}
