import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import { type Clock, systemClock } from "../../ports/clock.js";
import type { InventoryOutbox } from "../../ports/inventory-outbox.js";
import type { Logger } from "../../ports/logger.js";
import { systemTimer, type Timer, type TimerHandle } from "../../ports/timer.js";

/** Something delivered events are handed to: the engine's event bus, the MQTT publisher. */
export interface InventoryEventSink {
  readonly name: string;
  deliver(events: readonly InventoryEvent[]): Promise<void> | void;
}

export interface OutboxDispatcherOptions {
  outbox: InventoryOutbox;
  sinks: InventoryEventSink[];
  logger: Logger;
  /** How often the outbox is looked at for events written by any process. */
  pollIntervalMs: number;
  /** Delivered events are pruned once older than this. */
  retentionMs: number;
  /** Events claimed per round. Default 100. */
  batchSize?: number;
  clock?: Clock;
  timer?: Timer;
}

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Delivers the outbox's events after commit: each round claims a batch (the outbox keeps two
 * processes off the same household), hands it to every sink, and marks it delivered. A sink
 * that throws leaves the batch for the next round, so delivery is at least once; a process
 * that dies mid-round leaves its claim to roll back, and whichever process polls next delivers.
 */
export class OutboxDispatcher {
  private readonly clock: Clock;
  private readonly timer: Timer;
  private readonly batchSize: number;
  private handle: TimerHandle | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  /** 0: prune on the first round, then hourly. */
  private lastPrune = 0;

  constructor(private readonly options: OutboxDispatcherOptions) {
    this.clock = options.clock ?? systemClock;
    this.timer = options.timer ?? systemTimer;
    this.batchSize = options.batchSize ?? 100;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.nudge();
  }

  /** Stops polling and waits for a round in progress to finish. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.handle) this.timer.clearTimeout(this.handle);
    this.handle = null;
    await this.running;
  }

  /** Runs a round now (or right after the one in progress), e.g. after a local write. */
  nudge(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.handle) this.timer.clearTimeout(this.handle);
    this.handle = null;
    this.running = this.drain()
      .then(() => undefined)
      .finally(() => {
        this.running = null;
        if (!this.started) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.handle = this.timer.setTimeout(() => this.nudge(), this.options.pollIntervalMs);
        }
      });
  }

  /** Delivers until the outbox has nothing this process may claim; returns how many went out. */
  async drain(): Promise<number> {
    let delivered = 0;
    try {
      for (;;) {
        const count = await this.options.outbox.deliverNext(this.batchSize, (events) => this.deliver(events));
        delivered += count;
        if (count === 0) break;
      }
      await this.pruneWhenDue();
    } catch (error) {
      this.options.logger.error("Inventory event delivery failed; retrying on the next round", { err: error });
    }
    return delivered;
  }

  private async deliver(events: InventoryEvent[]): Promise<void> {
    for (const sink of this.options.sinks) {
      try {
        await sink.deliver(events);
      } catch (error) {
        this.options.logger.error(`Inventory event sink ${sink.name} failed`, { err: error, events: events.length });
        throw error;
      }
    }
  }

  private async pruneWhenDue(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const pruned = await this.options.outbox.prune(new Date(now - this.options.retentionMs));
    if (pruned > 0) this.options.logger.debug("Pruned delivered inventory events", { pruned });
  }
}
