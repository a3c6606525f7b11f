import { createConnection } from "node:net";
import { type IClientOptions, MqttClient as MqttJs } from "mqtt";
import { maskSecrets } from "../logging/mask-url.js";
import type { Logger } from "../../ports/logger.js";
import type { MqttClient, QoS } from "../../ports/mqtt-client.js";
import { type DroppedPacket, PacketSizeGuard } from "./packet-size-guard.js";

/** The default of `maxMessageBytes` (MQTT_MAX_MESSAGE_BYTES): 16 MB. */
const DEFAULT_MQTT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface MqttJsClientOptions {
  /** Broker URL, or a function resolving it at connect time (broker selection runs at start). */
  url: string | (() => Promise<string>);
  username?: string | undefined;
  password?: string | undefined;
  clientId?: string;
  /** First reconnect delay; doubles per failed attempt up to `maxReconnectDelayMs`. Default 500. */
  initialReconnectDelayMs?: number;
  /** Default 30000. */
  maxReconnectDelayMs?: number;
  /** How long the first connect() waits for an answer before resolving anyway. Default 5000. */
  firstAttemptTimeoutMs?: number;
  /** Messages larger than this many bytes are dropped unread (logged). Default 16 MB. */
  maxMessageBytes?: number;
}

/**
 * MqttClient over mqtt.js. mqtt.js's own fixed-period reconnect, resubscribe and offline
 * queue are switched off: reconnects back off exponentially here, and the MqttService
 * resubscribes and replays its bounded queue itself.
 */
export class MqttJsClient implements MqttClient {
  private client: MqttJs | undefined;
  private readonly messageListeners: ((topic: string, payload: Buffer) => void)[] = [];
  private readonly connectionListeners: ((connected: boolean) => void)[] = [];
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectDelay: number;
  private ended = false;

  constructor(
    private readonly options: MqttJsClientOptions,
    private readonly logger: Logger,
  ) {
    this.reconnectDelay = options.initialReconnectDelayMs ?? 500;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async connect(): Promise<void> {
    if (this.client) return;
    this.ended = false;
    const url = typeof this.options.url === "string" ? this.options.url : await this.options.url();
    const clientOptions: IClientOptions = {
      reconnectPeriod: 0,
      resubscribe: false,
      queueQoSZero: false,
      clean: true,
      connectTimeout: 10_000,
      clientId: this.options.clientId ?? `hearth-${process.pid}-${Math.random().toString(16).slice(2, 10)}`,
    };
    if (this.options.username) clientOptions.username = this.options.username;
    if (this.options.password) clientOptions.password = this.options.password;
    this.logger.info("Connecting to MQTT broker", { url: maskSecrets(url) });
    const client = new MqttJs(this.streamBuilder(url), clientOptions);
    this.client = client;
    client.on("message", (topic, payload) => {
      for (const listener of this.messageListeners) listener(topic, payload);
    });
    client.on("connect", () => {
      this.reconnectDelay = this.options.initialReconnectDelayMs ?? 500;
      this.emitConnection(true);
    });
    client.on("close", () => {
      this.emitConnection(false);
      this.scheduleReconnect();
    });
    client.on("error", (error) => {
      this.logger.warn("MQTT connection error", { err: error.message });
    });
    await this.firstAttempt(client);
  }

  subscribe(filters: string[]): void {
    this.client?.subscribe(filters, { qos: 0 }, (error) => {
      if (error) this.logger.error("MQTT subscribe failed", { filters: filters.slice(0, 10), err: error.message });
    });
  }

  unsubscribe(filters: string[]): void {
    this.client?.unsubscribe(filters, (error) => {
      if (error) this.logger.warn("MQTT unsubscribe failed", { filters: filters.slice(0, 10), err: error.message });
    });
  }

  publish(topic: string, payload: string | Buffer, options: { qos: QoS; retain: boolean }): void {
    this.client?.publish(topic, payload, options, (error) => {
      if (error) this.logger.warn("MQTT publish failed", { topic, err: error.message });
    });
  }

  async end(): Promise<void> {
    this.ended = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
    this.emitConnection(false);
  }

  onMessage(listener: (topic: string, payload: Buffer) => void): void {
    this.messageListeners.push(listener);
  }

  onConnectionChange(listener: (connected: boolean) => void): void {
    this.connectionListeners.push(listener);
  }

  /**
   * A TCP connection to the broker whose bytes reach mqtt.js's parser through the size guard.
   * mqtt.js's own `connect(url)` offers no way in between, so the client is built here.
   */
  private streamBuilder(url: string): () => ReturnType<typeof createConnection> {
    const { protocol, hostname, port } = new URL(url);
    if (protocol !== "mqtt:" && protocol !== "tcp:") {
      throw new Error(`MQTT broker URL ${maskSecrets(url)}: only mqtt:// is supported`);
    }
    const host = hostname.replace(/^\[(.*)\]$/, "$1");
    const maxBytes = this.options.maxMessageBytes ?? DEFAULT_MQTT_MAX_MESSAGE_BYTES;
    const onDrop = (packet: DroppedPacket) =>
      this.logger.warn("An MQTT message larger than MQTT_MAX_MESSAGE_BYTES was dropped unread", {
        topic: packet.topic,
        bytes: packet.bytes,
        maxBytes,
      });
    return () => {
      const socket = createConnection({ host, port: port === "" ? 1883 : Number(port) });
      // mqtt.js reads the connection only through `pipe` into its parser; everything else it
      // does with the socket (writes, errors, close, destroy) stays on the socket itself.
      const pipe = socket.pipe.bind(socket);
      socket.pipe = <T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T =>
        pipe(new PacketSizeGuard(maxBytes, onDrop)).pipe(destination, options);
      return socket;
    };
  }

  private emitConnection(connected: boolean): void {
    for (const listener of this.connectionListeners) listener(connected);
  }

  private scheduleReconnect(): void {
    if (this.ended || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.options.maxReconnectDelayMs ?? 30_000);
    this.logger.debug("MQTT reconnect scheduled", { delayMs: delay });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.ended && this.client && !this.client.connected) this.client.reconnect();
    }, delay);
  }

  private firstAttempt(client: MqttJs): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off("connect", done);
        client.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, this.options.firstAttemptTimeoutMs ?? 5000);
      client.once("connect", done);
      client.once("close", done);
    });
  }
}
