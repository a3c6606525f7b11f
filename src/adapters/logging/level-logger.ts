import type { LogFields, Logger, LogLevelName } from "../../ports/logger.js";

/** The six level methods of the Logger port, routed to one `write`; adapters implement `write` and `child`. */
export abstract class LevelLogger implements Logger {
  protected abstract write(level: LogLevelName, msg: string, fields?: LogFields): void;
  abstract child(bindings: LogFields): Logger;

  trace(msg: string, fields?: LogFields): void {
    this.write("trace", msg, fields);
  }
  debug(msg: string, fields?: LogFields): void {
    this.write("debug", msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.write("info", msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.write("warn", msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.write("error", msg, fields);
  }
  fatal(msg: string, fields?: LogFields): void {
    this.write("fatal", msg, fields);
  }
}
