import { parseJsonOr } from "../../domain/shared/parse-json.js";
import { assertTopicFilter, TopicIndex } from "../../domain/automation/topic-filter.js";
import type { MqttPayload } from "../../domain/automation/trigger.js";
import type { Logger } from "../../ports/logger.js";
import type { MqttClient, QoS } from "../../ports/mqtt-client.js";
import type { MqttHandler, MqttServiceApi, PublishOptions } from "../../ports/mqtt-bus.js";

export interface MqttServiceOptions {
  /** Topic prefix of the Zigbee2MQTT bridge (ZIGBEE2MQTT_PREFIX). */
  zigbeePrefix: string;
  /** Publishes kept while offline; the oldest is dropped beyond this. Default 1000. */
  offlineQueueLimit?: number;
}

interface Subscription {
  filter: string;
  /** Replaced, never mutated, so a handler that unsubscribes during dispatch is safe. */
  handlers: readonly MqttHandler[];
}

interface QueuedPublish {
  topic: string;
  payload: string;
  qos: QoS;
  retain: boolean;
}

/**
 * One broker connection shared by every automation and service. Subscriptions are kept
 * per topic filter and indexed (exact map + wildcard trie); the broker sees one
 * subscription per filter however many handlers share it.
 */
export class MqttService implements MqttServiceApi {
  readonly stats = { received: 0, published: 0, reconnects: 0 };
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly index = new TopicIndex<Subscription>();
  private readonly offlineQueue: QueuedPublish[] = [];
  private readonly offlineQueueLimit: number;
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private readonly matched: Subscription[] = [];
  private readonly collect = (subscription: Subscription) => {
    this.matched.push(subscription);
  };
  private droppedWhileOffline = 0;
  private hasConnectedBefore = false;
  private connectedNow = false;
  private closing = false;

  constructor(
    private readonly client: MqttClient,
    private readonly logger: Logger,
    private readonly options: MqttServiceOptions,
  ) {
    this.offlineQueueLimit = options.offlineQueueLimit ?? 1000;
    client.onMessage((topic, payload) => this.dispatch(topic, payload));
    client.onConnectionChange((connected) => this.connectionChanged(connected));
  }

  get isConnected(): boolean {
    return this.connectedNow && this.client.connected;
  }

  /** Starts connecting; resolves after the first attempt even when the broker is unreachable. */
  async connect(): Promise<void> {
    this.closing = false;
    await this.client.connect();
    if (!this.isConnected) this.logger.warn("MQTT broker not reachable yet; retrying in the background");
  }

  async disconnect(): Promise<void> {
    this.closing = true;
    await this.client.end();
    if (this.connectedNow) this.connectionChanged(false);
  }

  subscribe(topic: string, handler: MqttHandler): void {
    assertTopicFilter(topic);
    const existing = this.subscriptions.get(topic);
    if (existing) {
      existing.handlers = [...existing.handlers, handler];
      return;
    }
    const subscription: Subscription = { filter: topic, handlers: [handler] };
    this.subscriptions.set(topic, subscription);
    this.index.add(topic, subscription);
    // While offline the subscription is sent with all others on connect.
    if (this.isConnected) this.client.subscribe([topic]);
  }

  unsubscribe(topic: string, handler: MqttHandler): void {
    const subscription = this.subscriptions.get(topic);
    if (!subscription) return;
    const at = subscription.handlers.indexOf(handler);
    if (at < 0) return;
    subscription.handlers = subscription.handlers.filter((_, position) => position !== at);
    if (subscription.handlers.length > 0) return;
    this.subscriptions.delete(topic);
    this.index.remove(topic, subscription);
    if (this.isConnected) this.client.unsubscribe([topic]);
  }

  publish(topic: string, payload: Record<string, unknown> | string, options: PublishOptions = {}): void {
    const message: QueuedPublish = {
      topic,
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
      qos: options.qos ?? 0,
      retain: options.retain ?? false,
    };
    if (this.isConnected) {
      this.send(message);
      return;
    }
    this.offlineQueue.push(message);
    if (this.offlineQueue.length > this.offlineQueueLimit) {
      this.offlineQueue.shift();
      if (this.droppedWhileOffline++ === 0) {
        this.logger.warn("MQTT offline queue is full; dropping the oldest queued publishes", {
          limit: this.offlineQueueLimit,
        });
      }
    }
  }

  publishToDevice(friendlyName: string, payload: Record<string, unknown>, options?: PublishOptions): void {
    this.publish(`${this.deviceTopic(friendlyName)}/set`, payload, options);
  }

  deviceTopic(friendlyName: string): string {
    return `${this.options.zigbeePrefix}/${friendlyName}`;
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /** Number of distinct topic filters subscribed at the broker. */
  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  private send(message: QueuedPublish): void {
    this.client.publish(message.topic, message.payload, { qos: message.qos, retain: message.retain });
    this.stats.published++;
  }

  private dispatch(topic: string, raw: Buffer): void {
    this.stats.received++;
    const matched = this.matched;
    matched.length = 0;
    this.index.forEachMatch(topic, this.collect);
    if (matched.length === 0) return;
    // Copy: a handler may publish to a local echo and re-enter dispatch synchronously.
    const targets = matched.length === 1 ? [matched[0] as Subscription] : matched.slice();
    const payload = parsePayload(raw);
    for (const subscription of targets) {
      for (const handler of subscription.handlers) this.invoke(handler, subscription.filter, topic, payload);
    }
  }

  private invoke(handler: MqttHandler, filter: string, topic: string, payload: MqttPayload): void {
    try {
      const result = handler(topic, payload);
      if (result && typeof (result as Promise<void>).then === "function") {
        (result as Promise<void>).then(undefined, (error: unknown) => this.handlerFailed(error, filter, topic));
      }
    } catch (error) {
      this.handlerFailed(error, filter, topic);
    }
  }

  private handlerFailed(error: unknown, filter: string, topic: string): void {
    this.logger.error("MQTT handler failed", { filter, topic, err: error });
  }

  private connectionChanged(connected: boolean): void {
    if (connected === this.connectedNow) return;
    this.connectedNow = connected;
    if (connected) {
      if (this.hasConnectedBefore) this.stats.reconnects++;
      this.hasConnectedBefore = true;
      this.logger.info("MQTT connected", { subscriptions: this.subscriptions.size, queued: this.offlineQueue.length });
      if (this.subscriptions.size > 0) this.client.subscribe([...this.subscriptions.keys()]);
      this.flushOfflineQueue();
    } else {
      if (this.closing) this.logger.info("MQTT disconnected");
      else this.logger.warn("MQTT disconnected; reconnecting");
    }
    for (const listener of this.connectionListeners) {
      try {
        listener(connected);
      } catch (error) {
        this.logger.error("MQTT connection listener failed", { err: error });
      }
    }
  }

  private flushOfflineQueue(): void {
    if (this.droppedWhileOffline > 0) {
      this.logger.warn("Publishes dropped while MQTT was offline", { dropped: this.droppedWhileOffline });
      this.droppedWhileOffline = 0;
    }
    const queued = this.offlineQueue.splice(0, this.offlineQueue.length);
    for (const message of queued) this.send(message);
  }
}

/**
 * A JSON object stays as parsed; anything else (text, numbers, arrays, invalid JSON)
 * becomes `{ raw: "<text>" }` so trigger filters can always read fields.
 */
export function parsePayload(raw: Buffer | string): MqttPayload {
  const text = typeof raw === "string" ? raw : raw.toString("utf8");
  // Only text starting with "{" can be a JSON object; skip the parse attempt otherwise.
  if (text.charCodeAt(0) === 123 || text.trimStart().charCodeAt(0) === 123) {
    // Not JSON, or JSON but not an object: handed over as raw text below.
    const value = parseJsonOr(text, null);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as MqttPayload;
  }
  return { raw: text };
}
