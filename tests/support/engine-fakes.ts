/** Fakes of the engine's ports for unit tests: MQTT client, timers with a clock, JSON store. */
import type { MqttClient, QoS } from "../../src/ports/mqtt-client.js";
import type { Clock } from "../../src/ports/clock.js";
import type { Timer, TimerHandle } from "../../src/ports/timer.js";

export class FakeMqttClient implements MqttClient {
  connected = false;
  readonly subscribed: string[][] = [];
  readonly unsubscribed: string[][] = [];
  readonly published: { topic: string; payload: string; qos: QoS; retain: boolean }[] = [];
  private readonly messageListeners: ((topic: string, payload: Buffer) => void)[] = [];
  private readonly connectionListeners: ((connected: boolean) => void)[] = [];

  constructor(private readonly connectOnStart = true) {}

  async connect(): Promise<void> {
    if (this.connectOnStart) this.setConnected(true);
  }
  subscribe(filters: string[]): void {
    this.subscribed.push(filters);
  }
  unsubscribe(filters: string[]): void {
    this.unsubscribed.push(filters);
  }
  publish(topic: string, payload: string | Buffer, options: { qos: QoS; retain: boolean }): void {
    this.published.push({ topic, payload: payload.toString(), ...options });
  }
  async end(): Promise<void> {
    this.setConnected(false);
  }
  onMessage(listener: (topic: string, payload: Buffer) => void): void {
    this.messageListeners.push(listener);
  }
  onConnectionChange(listener: (connected: boolean) => void): void {
    this.connectionListeners.push(listener);
  }

  /** Simulates the broker delivering a message. */
  deliver(topic: string, payload: string | Record<string, unknown>): void {
    const text = typeof payload === "string" ? payload : JSON.stringify(payload);
    for (const listener of this.messageListeners) listener(topic, Buffer.from(text));
  }
  setConnected(connected: boolean): void {
    this.connected = connected;
    for (const listener of this.connectionListeners) listener(connected);
  }
  /** Every filter currently subscribed at the "broker". */
  get brokerFilters(): Set<string> {
    const filters = new Set<string>();
    for (const batch of this.subscribed) for (const filter of batch) filters.add(filter);
    for (const batch of this.unsubscribed) for (const filter of batch) filters.delete(filter);
    return filters;
  }
}

/** A clock and timer pair on fake time: `advance(ms)` runs due timers in order. */
export class FakeTime implements Clock, Timer {
  private current: number;
  private readonly pending = new Map<object, { at: number; callback: () => void; order: number }>();
  private sequence = 0;

  constructor(start: Date | string = "2026-01-01T00:00:00Z") {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = {};
    this.pending.set(handle, { at: this.current + Math.max(0, delayMs), callback, order: this.sequence++ });
    return handle;
  }
  clearTimeout(handle: TimerHandle): void {
    this.pending.delete(handle as object);
  }
  get pendingCount(): number {
    return this.pending.size;
  }
  /**
   * Moves time forward by `ms` without firing anything, as a process that was not scheduled
   * (a GC pause, a stopped VM) sees it: the next advance() fires what fell due, late.
   */
  stall(ms: number): void {
    this.current += ms;
  }
  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let next: [object, { at: number; callback: () => void; order: number }] | undefined;
      for (const entry of this.pending) {
        if (entry[1].at > target) continue;
        if (!next || entry[1].at < next[1].at || (entry[1].at === next[1].at && entry[1].order < next[1].order))
          next = entry;
      }
      if (!next) break;
      this.pending.delete(next[0]);
      this.current = Math.max(this.current, next[1].at);
      next[1].callback();
    }
    this.current = target;
  }
}

/** The in-memory store tests use; the same one the contract suite runs. */
export { MemoryJsonStore } from "../../src/adapters/state/memory-json-store.js";

/** Resolves once `condition()` holds, polling until `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
