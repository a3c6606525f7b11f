import { LOG_LEVELS } from "../../ports/log-buffer.js";
import type { LogFields, Logger, LogLevelName } from "../../ports/logger.js";
import { LevelLogger } from "./level-logger.js";
import { maskSecrets } from "./mask-url.js";
import type { RingBufferLog } from "./ring-buffer.js";
import { normaliseFields } from "./log-call.js";

/**
 * Forwards every entry to another logger and also records it in a ring buffer, as the
 * process logger's ring-buffer transport does. createEngine wraps a custom `logger` in
 * one, so /api/logs and the web UI's log view still work when the embedding program
 * brings its own logger.
 */
export class BufferedLogger extends LevelLogger {
  constructor(
    private readonly target: Logger,
    private readonly buffer: RingBufferLog,
    /** Entries below this level are forwarded but not recorded (LOG_LEVEL). */
    private readonly minLevel: LogLevelName,
    private readonly bindings: LogFields = {},
  ) {
    super();
  }

  protected override write(level: LogLevelName, msg: string, fields: LogFields): void {
    this.target[level](msg, fields);
    if (LOG_LEVELS[level] < LOG_LEVELS[this.minLevel]) return;
    const recorded = normaliseFields({ ...this.bindings, ...fields });
    this.buffer.push({ ...recorded, level: LOG_LEVELS[level], time: Date.now(), msg: maskSecrets(msg) });
  }

  override child(bindings: LogFields): Logger {
    return new BufferedLogger(this.target.child(bindings), this.buffer, this.minLevel, {
      ...this.bindings,
      ...bindings,
    });
  }
}
