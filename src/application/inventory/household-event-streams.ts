import type { HouseholdAccess } from "./household-access.js";
import { NotHouseholdMemberError } from "../../domain/inventory/errors.js";
import type { InventoryEvent } from "../../domain/inventory/inventory-event.js";
import type { FeedEvent, InventoryEventFeed } from "../../ports/inventory-event-feed.js";
import type { Logger } from "../../ports/logger.js";
import { systemTimer, type Timer, type TimerHandle } from "../../ports/timer.js";

/** What one open stream is told; the HTTP adapter writes it as Server-Sent Events. */
export interface HouseholdEventSink {
  event(cursor: string, event: InventoryEvent): void;
  /** The client's cursor is too old to replay from: it must reload what it shows. */
  reset(cursor: string): void;
  /** A keep-alive for proxies and the client's connection. */
  ping(): void;
  /** The member no longer belongs to the household; the stream closes after this. */
  membershipEnded(): void;
}

export interface HouseholdEventStreamsOptions {
  feed: InventoryEventFeed;
  access: HouseholdAccess;
  logger: Logger;
  /** How often the feed is read while streams are open (INVENTORY_EVENTS_POLL_MS). */
  pollIntervalMs: number;
  /** Keep-alive interval; memberships are re-checked at the same pace. Default 15 s. */
  heartbeatMs?: number;
  /** Concurrent streams one user may hold in this process. Default 10. */
  maxStreamsPerUser?: number;
  /** Events replayed after Last-Event-ID at most; more means `reset`. Default 1000. */
  maxReplay?: number;
  timer?: Timer;
}

/** An open stream; `close()` when the client goes away. */
export interface HouseholdEventStream {
  close(): void;
}

export class TooManyStreamsError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("Too many open event streams for this user");
  }
}

interface Subscriber {
  userId: string;
  householdId: string;
  sink: HouseholdEventSink;
  /** Events arriving while the replay runs; null once live. */
  buffer: FeedEvent[] | null;
  /** The last cursor this subscriber has been given (or is past). */
  after: string;
  onClose: () => void;
  closed: boolean;
}

const BATCH = 500;

/**
 * The live household event streams of this process. One reader follows the whole feed (every
 * household's events, from whichever process wrote them) while any stream is open, and hands
 * each event to the streams of its household; a new stream replays what its client missed
 * (Last-Event-ID) up to the reader's position, then joins live, so nothing is lost or repeated.
 */
export class HouseholdEventStreams {
  private readonly timer: Timer;
  private readonly heartbeatMs: number;
  private readonly maxPerUser: number;
  private readonly maxReplay: number;
  private readonly subscribers = new Set<Subscriber>();
  /** The reader's position; null while no stream is open. */
  private cursor: Promise<string> | null = null;
  private pollHandle: TimerHandle | null = null;
  private heartbeatHandle: TimerHandle | null = null;
  private polling: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: HouseholdEventStreamsOptions) {
    this.timer = options.timer ?? systemTimer;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.maxPerUser = options.maxStreamsPerUser ?? 10;
    this.maxReplay = options.maxReplay ?? 1000;
  }

  /**
   * Opens a stream for a member (the caller has checked the membership). Throws
   * TooManyStreamsError when the user already holds the maximum.
   */
  async open(input: {
    userId: string;
    householdId: string;
    lastEventId: string | undefined;
    sink: HouseholdEventSink;
    onClose: () => void;
  }): Promise<HouseholdEventStream> {
    if (this.stopped) throw new TooManyStreamsError(5);
    const held = [...this.subscribers].filter((s) => s.userId === input.userId).length;
    if (held >= this.maxPerUser) throw new TooManyStreamsError(Math.ceil(this.heartbeatMs / 1000));
    const subscriber: Subscriber = {
      userId: input.userId,
      householdId: input.householdId,
      sink: input.sink,
      buffer: [],
      after: "",
      onClose: input.onClose,
      closed: false,
    };
    this.subscribers.add(subscriber);
    this.cursor ??= this.options.feed.head();
    this.schedule();
    const stream = { close: () => this.remove(subscriber) };
    try {
      const live = await this.cursor;
      subscriber.after = live;
      const last = input.lastEventId;
      if (last !== undefined) await this.replay(subscriber, last, live);
      const buffered = subscriber.buffer ?? [];
      subscriber.buffer = null;
      for (const item of buffered) this.hand(subscriber, item);
    } catch (error) {
      this.remove(subscriber);
      throw error;
    }
    return stream;
  }

  /** Closes every stream and stops reading (the server is shutting down). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const subscriber of [...this.subscribers]) this.remove(subscriber);
    await this.polling;
  }

  private async replay(subscriber: Subscriber, last: string, live: string): Promise<void> {
    const { feed } = this.options;
    if (!feed.isCursor(last) || !(await feed.retainsAfter(last))) {
      subscriber.sink.reset(live);
      return;
    }
    if (last > live) {
      // A cursor from a reader further ahead (another process): skip what it already had.
      subscriber.after = last;
      return;
    }
    const missed = await feed.readAfter([subscriber.householdId], last, this.maxReplay + 1, live);
    if (missed.length > this.maxReplay) {
      subscriber.sink.reset(live);
      return;
    }
    for (const item of missed) {
      if (subscriber.closed) return;
      this.deliver(subscriber, item);
    }
    subscriber.after = live;
  }

  /** Passes one live event to a subscriber, or keeps it until its replay is done. */
  private hand(subscriber: Subscriber, item: FeedEvent): void {
    if (subscriber.closed) return;
    if (subscriber.buffer) {
      subscriber.buffer.push(item);
      return;
    }
    if (item.cursor <= subscriber.after) return;
    this.deliver(subscriber, item);
    subscriber.after = item.cursor;
  }

  private deliver(subscriber: Subscriber, item: FeedEvent): void {
    subscriber.sink.event(item.cursor, item.event);
    if (endsMembership(item.event, subscriber.userId)) this.end(subscriber);
  }

  private end(subscriber: Subscriber): void {
    if (subscriber.closed) return;
    subscriber.sink.membershipEnded();
    this.remove(subscriber);
  }

  private remove(subscriber: Subscriber): void {
    if (subscriber.closed) return;
    subscriber.closed = true;
    this.subscribers.delete(subscriber);
    subscriber.onClose();
    if (this.subscribers.size === 0) {
      // No reader while nobody listens; the next stream starts from the head again.
      this.cursor = null;
      if (this.pollHandle) this.timer.clearTimeout(this.pollHandle);
      if (this.heartbeatHandle) this.timer.clearTimeout(this.heartbeatHandle);
      this.pollHandle = null;
      this.heartbeatHandle = null;
    }
  }

  private schedule(): void {
    if (this.stopped || this.subscribers.size === 0) return;
    this.pollHandle ??= this.timer.setTimeout(() => {
      this.pollHandle = null;
      this.polling = this.poll().finally(() => {
        this.polling = null;
        this.schedule();
      });
    }, this.options.pollIntervalMs);
    this.heartbeatHandle ??= this.timer.setTimeout(() => {
      this.heartbeatHandle = null;
      void this.heartbeat().finally(() => this.schedule());
    }, this.heartbeatMs);
  }

  private async poll(): Promise<void> {
    try {
      for (;;) {
        const current = this.cursor;
        if (!current) return;
        const from = await current;
        const batch = await this.options.feed.readAfter(null, from, BATCH);
        // The streams may all have closed (and the reader restarted) while the read ran.
        if (this.cursor !== current || batch.length === 0) return;
        const last = batch[batch.length - 1]!.cursor;
        this.cursor = Promise.resolve(last);
        for (const item of batch) {
          for (const subscriber of [...this.subscribers]) {
            if (subscriber.householdId === item.event.householdId) this.hand(subscriber, item);
          }
        }
        if (batch.length < BATCH) return;
      }
    } catch (error) {
      this.options.logger.error("Reading household events for live streams failed; retrying", { err: error });
    }
  }

  /** Keeps connections alive, and closes streams whose member left by a way no event told. */
  private async heartbeat(): Promise<void> {
    for (const subscriber of [...this.subscribers]) {
      if (subscriber.closed) continue;
      subscriber.sink.ping();
      try {
        await this.options.access.requireMember(subscriber.householdId, subscriber.userId);
      } catch (error) {
        if (error instanceof NotHouseholdMemberError) this.end(subscriber);
        else this.options.logger.warn("Re-checking an event stream's membership failed", { err: error });
      }
    }
  }
}

function endsMembership(event: InventoryEvent, userId: string): boolean {
  if (event.type === "household.deleted") return true;
  return event.type === "member.left" && event.data.userId === userId;
}
