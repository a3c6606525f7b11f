import type { LogFields, Logger, LogLevelName, LogMethod } from "../../ports/logger.js";
import { parseLogCall } from "./log-call.js";

/**
 * The six level methods of the Logger port, routed to one `write` after both argument orders
 * are normalised; adapters implement `write` and `child`. A failure inside an adapter is
 * reported on stderr and swallowed: logging must never break the caller.
 */
export abstract class LevelLogger implements Logger {
  protected abstract write(level: LogLevelName, msg: string, fields: LogFields): void;
  abstract child(bindings: LogFields): Logger;

  readonly trace: LogMethod = (first: unknown, second?: unknown) => this.log("trace", first, second);
  readonly debug: LogMethod = (first: unknown, second?: unknown) => this.log("debug", first, second);
  readonly info: LogMethod = (first: unknown, second?: unknown) => this.log("info", first, second);
  readonly warn: LogMethod = (first: unknown, second?: unknown) => this.log("warn", first, second);
  readonly error: LogMethod = (first: unknown, second?: unknown) => this.log("error", first, second);
  readonly fatal: LogMethod = (first: unknown, second?: unknown) => this.log("fatal", first, second);

  private log(level: LogLevelName, first: unknown, second: unknown): void {
    try {
      const { msg, fields } = parseLogCall(first, second);
      this.write(level, msg, fields);
    } catch (error) {
      try {
        process.stderr.write(`hearth: a log entry could not be written: ${String(error)}\n`);
      } catch {
        // stderr itself is gone (closed pipe at shutdown): nothing left to tell.
      }
    }
  }
}
