import { topicMatches } from "../../domain/automation/topic-filter.js";

/** Runs caused by the automation's own publishes on one topic, within {@link SELF_TRIGGER_WINDOW_MS}, that make a loop. */
export const SELF_TRIGGER_RUNS = 20;
/**
 * ... when they are more than this many per run something else caused. An automation that
 * answers each message on a topic it also hears runs once more per outside message; a loop
 * runs on with no outside message at all.
 */
export const SELF_TRIGGER_RATIO = 4;
export const SELF_TRIGGER_WINDOW_MS = 10_000;
/** One warning per automation and topic in this time, however long the loop goes on. */
export const SELF_TRIGGER_WARN_EVERY_MS = 10 * 60_000;
/**
 * How long after its own publish a message on that topic is taken for the echo: a broker
 * answers within milliseconds; longer is a device or another client speaking.
 */
const ECHO_MS = 5_000;
/** Topics followed per automation; an automation publishing to thousands of its own topics is not a tight loop on one. */
const MAX_TOPICS = 256;

interface TopicRecord {
  /** Own publishes on the topic whose echo has not arrived yet. */
  pending: number;
  publishedAtMs: number;
  /** Runs its echoes caused in the window that started at `windowStartMs`. */
  windowStartMs: number;
  selfRuns: number;
  warnedAtMs: number | null;
}

/**
 * Notices an automation that runs again and again on messages it published itself: a publish
 * to a topic its own MQTT trigger matches, whose echo from the broker fires it again, whose
 * run publishes again. Such a loop runs as fast as the broker answers and nothing else says so.
 * Publishing to one's own topic is legitimate too (an acknowledgement, a retained status), so
 * it counts as a loop only when, within {@link SELF_TRIGGER_WINDOW_MS}, the echoes on one topic
 * ran the automation at least {@link SELF_TRIGGER_RUNS} times and more than
 * {@link SELF_TRIGGER_RATIO} times as often as anything else did; the warning is given once per
 * {@link SELF_TRIGGER_WARN_EVERY_MS}.
 *
 * Only automations with MQTT triggers get one; until the automation publishes to a topic its
 * own trigger matches, a firing costs one size check.
 */
export class SelfTriggerWatch {
  private readonly topics = new Map<string, TopicRecord>();
  private windowStartMs = Number.NEGATIVE_INFINITY;
  /** Firings in the current window that were not an echo of the automation's own publish. */
  private outsideRuns = 0;

  constructor(
    private readonly filters: readonly string[],
    private readonly nowMs: () => number,
    private readonly warn: (topic: string, runs: number) => void,
  ) {}

  /** The automation published on `topic`: remembered when its own trigger would hear it. */
  published(topic: string): void {
    if (!this.filters.some((filter) => topicMatches(filter, topic))) return;
    const now = this.nowMs();
    let record = this.topics.get(topic);
    if (record === undefined) {
      if (this.topics.size >= MAX_TOPICS) this.forgetQuiet(now);
      if (this.topics.size >= MAX_TOPICS) return;
      record = { pending: 0, publishedAtMs: now, windowStartMs: now, selfRuns: 0, warnedAtMs: null };
      this.topics.set(topic, record);
    }
    record.pending++;
    record.publishedAtMs = now;
  }

  /** A message on `topic` reached one of the automation's MQTT triggers, whose filter turned it away. */
  rejected(topic: string): void {
    if (this.topics.size === 0) return;
    this.ownEcho(topic, this.nowMs());
  }

  /** One of the automation's MQTT triggers fired on `topic`. */
  fired(topic: string): void {
    if (this.topics.size === 0) return;
    const now = this.nowMs();
    if (now - this.windowStartMs > SELF_TRIGGER_WINDOW_MS) {
      this.windowStartMs = now;
      this.outsideRuns = 0;
    }
    const record = this.ownEcho(topic, now);
    if (record === undefined) {
      this.outsideRuns++;
      return;
    }
    if (record.windowStartMs !== this.windowStartMs) {
      record.windowStartMs = this.windowStartMs;
      record.selfRuns = 0;
    }
    record.selfRuns++;
    if (record.selfRuns < SELF_TRIGGER_RUNS || record.selfRuns <= this.outsideRuns * SELF_TRIGGER_RATIO) return;
    if (record.warnedAtMs !== null && now - record.warnedAtMs < SELF_TRIGGER_WARN_EVERY_MS) return;
    record.warnedAtMs = now;
    this.warn(topic, record.selfRuns);
  }

  /** The topic's record when this message is the echo of the automation's own publish (which it then uses up). */
  private ownEcho(topic: string, now: number): TopicRecord | undefined {
    const record = this.topics.get(topic);
    if (record === undefined || record.pending === 0) return undefined;
    if (now - record.publishedAtMs > ECHO_MS) {
      record.pending = 0;
      return undefined;
    }
    record.pending--;
    return record;
  }

  /** Drops topics with no echo due and no warning to hold back. */
  private forgetQuiet(now: number): void {
    for (const [topic, record] of this.topics) {
      const echoDue = record.pending > 0 && now - record.publishedAtMs <= ECHO_MS;
      const holdingWarning = record.warnedAtMs !== null && now - record.warnedAtMs < SELF_TRIGGER_WARN_EVERY_MS;
      if (!echoDue && !holdingWarning) this.topics.delete(topic);
    }
  }
}
