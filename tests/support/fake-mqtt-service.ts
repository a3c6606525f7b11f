import type { MqttHandler, MqttServiceApi, PublishOptions } from "../../src/ports/mqtt-bus.js";
import { topicMatches as matches } from "../../src/domain/automation/topic-filter.js";
import type { MqttPayload } from "../../src/domain/automation/trigger.js";

/** An in-memory MqttServiceApi: tests deliver messages with `emit` and read `published`. */
export class FakeMqttService implements MqttServiceApi {
  isConnected = true;
  readonly subscriptions = new Map<string, Set<MqttHandler>>();
  readonly published: { topic: string; payload: Record<string, unknown> | string; options?: PublishOptions }[] = [];
  readonly stats = { received: 0, published: 0, reconnects: 0 };
  private readonly connectionListeners = new Set<(connected: boolean) => void>();

  constructor(readonly prefix = "zigbee2mqtt") {}

  async connect(): Promise<void> {
    this.setConnected(true);
  }

  async disconnect(): Promise<void> {
    this.setConnected(false);
  }

  setConnected(connected: boolean): void {
    this.isConnected = connected;
    for (const listener of this.connectionListeners) listener(connected);
  }

  subscribe(topic: string, handler: MqttHandler): void {
    const handlers = this.subscriptions.get(topic) ?? new Set<MqttHandler>();
    handlers.add(handler);
    this.subscriptions.set(topic, handlers);
  }

  unsubscribe(topic: string, handler: MqttHandler): void {
    const handlers = this.subscriptions.get(topic);
    if (!handlers) return;
    handlers.delete(handler);
    if (handlers.size === 0) this.subscriptions.delete(topic);
  }

  publish(topic: string, payload: Record<string, unknown> | string, options?: PublishOptions): void {
    this.stats.published++;
    this.published.push({ topic, payload, ...(options ? { options } : {}) });
  }

  publishToDevice(friendlyName: string, payload: Record<string, unknown>, options?: PublishOptions): void {
    this.publish(`${this.deviceTopic(friendlyName)}/set`, payload, options);
  }

  deviceTopic(friendlyName: string): string {
    return `${this.prefix}/${friendlyName}`;
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /**
   * Delivers a message the way the real service does: JSON objects as parsed, anything
   * else (arrays included) as `{ raw: text }`. Awaits every handler.
   */
  async emit(topic: string, payload: unknown): Promise<void> {
    this.stats.received++;
    const text = typeof payload === "string" ? payload : JSON.stringify(payload);
    let parsed: MqttPayload;
    try {
      const value = JSON.parse(text) as unknown;
      parsed =
        typeof value === "object" && value !== null && !Array.isArray(value) ? (value as MqttPayload) : { raw: text };
    } catch {
      parsed = { raw: text };
    }
    for (const [filter, handlers] of this.subscriptions) {
      if (!matches(filter, topic)) continue;
      for (const handler of [...handlers]) await handler(topic, parsed);
    }
  }

  subscribedTopics(): string[] {
    return [...this.subscriptions.keys()].sort();
  }
}
