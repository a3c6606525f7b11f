/** Structured fields attached to a log entry (automation, service, module, err, ...). */
export type LogFields = Record<string, unknown>;

export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error" | "fatal";

/**
 * The logger every layer writes to. Adapters decide where entries go (stdout, the
 * in-memory ring buffer); callers only choose a level, a message and fields.
 */
export interface Logger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  fatal(msg: string, fields?: LogFields): void;
  /** A logger whose entries all carry `bindings` (e.g. `{ automation: "porch-light" }`). */
  child(bindings: LogFields): Logger;
}

export const LOGGER = Symbol("Logger");
