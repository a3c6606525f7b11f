import type { LogFields, Logger, LogLevelName } from "../../ports/logger.js";
import { LevelLogger } from "./level-logger.js";

export interface RecordedLogEntry {
  level: LogLevelName;
  msg: string;
  fields: LogFields;
}

/** A logger that only records, for unit tests and for silencing libraries in benchmarks. */
export class MemoryLogger extends LevelLogger {
  constructor(
    readonly entries: RecordedLogEntry[] = [],
    private readonly bindings: LogFields = {},
  ) {
    super();
  }

  protected override write(level: LogLevelName, msg: string, fields: LogFields): void {
    this.entries.push({ level, msg, fields: { ...this.bindings, ...fields } });
  }

  override child(bindings: LogFields): Logger {
    return new MemoryLogger(this.entries, { ...this.bindings, ...bindings });
  }

  /** Entries at `level`, for assertions. */
  at(level: LogLevelName): RecordedLogEntry[] {
    return this.entries.filter((entry) => entry.level === level);
  }
}
