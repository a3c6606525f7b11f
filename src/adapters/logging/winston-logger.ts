import { inspect } from "node:util";
import Transport from "winston-transport";
import winston from "winston";
import type { LogFields, Logger, LogLevelName } from "../../ports/logger.js";
import { LevelLogger } from "./level-logger.js";
import { LOG_LEVELS } from "../../ports/log-buffer.js";
import { maskSecrets } from "./mask-url.js";
import { normaliseFields } from "./log-call.js";
import { RingBufferLog } from "./ring-buffer.js";

// winston orders levels by priority: lower is more severe.
const WINSTON_LEVELS: Record<LogLevelName, number> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };

export interface LoggerOptions {
  level: LogLevelName;
  /** Newline-delimited JSON (production) instead of readable text. */
  json: boolean;
  /** Receives every entry at or above `level`; created when omitted. */
  buffer?: RingBufferLog | undefined;
  /** Where text/JSON goes; stdout when omitted. Tests pass a sink to keep output quiet. */
  stream?: NodeJS.WritableStream | undefined;
}

class RingBufferTransport extends Transport {
  constructor(private readonly buffer: RingBufferLog) {
    super();
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    const { level, message } = info;
    // Only string keys: winston keeps its own bookkeeping under symbols.
    const fields = Object.fromEntries(
      Object.entries(info).filter(([name]) => name !== "level" && name !== "message" && name !== "timestamp"),
    );
    const numeric = LOG_LEVELS[level as LogLevelName] ?? LOG_LEVELS.info;
    this.buffer.push({ ...fields, level: numeric, time: Date.now(), msg: String(message) });
    next();
  }
}

const textFormat = winston.format.printf((info) => {
  const { level, message, timestamp, ...fields } = info;
  const scope = [fields.module, fields.service, fields.automation].filter(Boolean).join("/");
  const rest = Object.fromEntries(
    Object.entries(fields).filter(([name]) => !["module", "service", "automation"].includes(name)),
  );
  const extra = Object.keys(rest).length
    ? ` ${inspect(rest, { breakLength: Number.POSITIVE_INFINITY, depth: 4 })}`
    : "";
  return `${timestamp} ${level.toUpperCase().padEnd(5)} ${scope ? `[${scope}] ` : ""}${String(message)}${extra}`;
});

class WinstonLogger extends LevelLogger {
  constructor(
    private readonly target: winston.Logger,
    private readonly bindings: LogFields,
  ) {
    super();
  }

  protected override write(level: LogLevelName, msg: string, fields: LogFields): void {
    this.target.log(level, maskSecrets(msg), normaliseFields({ ...this.bindings, ...fields }));
  }

  override child(bindings: LogFields): Logger {
    return new WinstonLogger(this.target, { ...this.bindings, ...bindings });
  }
}

/** The process logger: stdout (text or NDJSON) plus the in-memory ring buffer. */
export function createLogger(options: LoggerOptions): { logger: Logger; buffer: RingBufferLog } {
  const buffer = options.buffer ?? new RingBufferLog();
  const streamTransport = options.stream
    ? new winston.transports.Stream({ stream: options.stream })
    : new winston.transports.Console();
  const target = winston.createLogger({
    levels: WINSTON_LEVELS,
    level: options.level,
    format: options.json
      ? winston.format.combine(winston.format.timestamp(), winston.format.json())
      : winston.format.combine(winston.format.timestamp(), textFormat),
    transports: [streamTransport, new RingBufferTransport(buffer)],
  });
  return { logger: new WinstonLogger(target, {}), buffer };
}
