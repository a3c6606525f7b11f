/** Structured fields attached to a log entry (automation, service, module, err, ...). */
export type LogFields = Record<string, unknown>;

export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error" | "fatal";

/**
 * One level's log method. Both argument orders work, so automations written for
 * pino-style loggers (`logger.info({ door }, "Door opened")`) run unchanged; an Error
 * given first is logged under `err`. A logging call never throws, whatever it is given.
 */
export interface LogMethod {
  (msg: string, fields?: LogFields): void;
  (fields: LogFields | Error, msg?: string): void;
}

/**
 * The logger every layer writes to. Adapters decide where entries go (stdout, the
 * in-memory ring buffer); callers only choose a level, a message and fields.
 */
export interface Logger {
  trace: LogMethod;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  fatal: LogMethod;
  /** A logger whose entries all carry `bindings` (e.g. `{ automation: "porch-light" }`). */
  child(bindings: LogFields): Logger;
}

export const LOGGER = Symbol("Logger");
