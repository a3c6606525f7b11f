import type { LogBuffer, LogEntry, LogQuery } from "../../ports/log-buffer.js";

export const DEFAULT_LOG_QUERY_LIMIT = 50;

/** Fixed-capacity buffer of the most recent log entries; the oldest entry is overwritten first. */
export class RingBufferLog implements LogBuffer {
  private readonly entries: (LogEntry | undefined)[];
  private next = 0;
  private size = 0;
  private readonly listeners = new Set<(entry: LogEntry) => void>();

  constructor(readonly capacity = 2500) {
    this.entries = new Array(capacity);
  }

  push(entry: LogEntry): void {
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
    for (const listener of this.listeners) listener(entry);
  }

  /** Matching entries, newest first. */
  query(query: LogQuery = {}): LogEntry[] {
    const limit = query.limit ?? DEFAULT_LOG_QUERY_LIMIT;
    const result: LogEntry[] = [];
    for (let offset = 1; offset <= this.size && result.length < limit; offset++) {
      const entry = this.entries[(this.next - offset + this.capacity) % this.capacity];
      if (!entry) continue;
      if (query.level !== undefined && entry.level < query.level) continue;
      if (query.automation !== undefined && entry.automation !== query.automation) continue;
      result.push(entry);
    }
    return result;
  }

  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get length(): number {
    return this.size;
  }
}
