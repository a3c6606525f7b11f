/** Numeric log levels as the engine spec defines them. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** One entry of the in-memory ring buffer: level, Unix-ms time, message, extra fields. */
export interface LogEntry {
  level: number;
  time: number;
  msg: string;
  [field: string]: unknown;
}

export interface LogQuery {
  automation?: string | undefined;
  /** Minimum numeric level. */
  level?: number | undefined;
  /** Default 50. */
  limit?: number | undefined;
}

/** Read side of the ring buffer of recent log entries (newest last in storage, newest first in results). */
export interface LogBuffer {
  query(query?: LogQuery): LogEntry[];
  /** Called for every new entry; returns an unsubscribe function (used for live log views). */
  subscribe(listener: (entry: LogEntry) => void): () => void;
}

export const LOG_BUFFER = Symbol("LogBuffer");
