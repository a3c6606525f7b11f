import { writeSync } from "node:fs";
import { inspect } from "node:util";
import type { Logger } from "../ports/logger.js";

/** Longest a signal-triggered stop may take before the process exits anyway. */
export const SHUTDOWN_LIMIT_MS = 10_000;

/** Signals that stop Hearth (the spec's "engine.stop(), or SIGINT or SIGTERM"). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/**
 * What a start has brought up so far. A failed start unwinds it in reverse; so does a stop
 * that has no sequence of its own. Every part that starts something pushes how to undo it.
 */
export class UndoStack {
  private readonly steps: { label: string; run: () => Promise<unknown> | unknown }[] = [];

  push(label: string, run: () => Promise<unknown> | unknown): void {
    this.steps.push({ label, run });
  }

  /** Forgets every step (the caller now stops the parts in its own order). */
  clear(): void {
    this.steps.length = 0;
  }

  /** Undoes every step, last first; a failing step is logged and the others still run. */
  async unwind(logger: Logger): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (error) {
        logger.error(`Could not stop ${step.label}`, { err: error });
      }
    }
  }
}

export interface StopOnSignalsOptions {
  /** Where "stopping" is logged; a function when the logger exists only once a start has got far enough. */
  logger: Logger | (() => Logger);
  limitMs?: number;
  /** Test seam: process.exit by default. */
  exit?: (code: number) => void;
}

/**
 * The one signal handler: SIGINT or SIGTERM runs `stop`, then exits 0 (1 when stopping
 * failed or took longer than the limit). A second signal while stopping gets Node's
 * default, an immediate exit. Returns a function that removes the handler again.
 */
export function stopOnSignals(stop: () => Promise<void>, options: StopOnSignalsOptions): () => void {
  const limitMs = options.limitMs ?? SHUTDOWN_LIMIT_MS;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const release = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
  const logger = () => (typeof options.logger === "function" ? options.logger() : options.logger);
  function onSignal(signal: NodeJS.Signals): void {
    release();
    logger().info(`Received ${signal}; stopping`);
    const limit = setTimeout(() => {
      logger().fatal(`Stopping took longer than ${limitMs / 1000} s; exiting`);
      exit(1);
    }, limitMs);
    limit.unref();
    stop().then(
      () => {
        clearTimeout(limit);
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(limit);
        logger().fatal("Stopping failed", { err: error });
        exit(1);
      },
    );
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return release;
}

/**
 * Keeps the process running when a promise rejects with nobody to catch it. Node's default
 * ends the process, and automations are where such promises come from: one `void fetch()` in
 * an automation, or a rejection after its run ended, would stop every other automation, the
 * HTTP API and the inventory with it. `report` logs it under the automation it came from
 * (true); anything else is logged here. Returns a function that removes the handler again.
 */
export function logUnhandledRejections(logger: Logger, report: (error: unknown) => boolean): () => void {
  // A listener that re-emits the event (mocha's does) would have one rejection counted twice.
  const seen = new WeakSet<object>();
  const onRejection = (reason: unknown) => {
    if (typeof reason === "object" && reason !== null) {
      if (seen.has(reason)) return;
      seen.add(reason);
    }
    if (report(reason)) return;
    logger.error("Unhandled promise rejection (a promise nobody awaited or caught); Hearth keeps running", {
      err: reason,
    });
  };
  process.on("unhandledRejection", onRejection);
  return () => process.off("unhandledRejection", onRejection);
}

export interface UncaughtExceptionOptions {
  /** Test seam: process.exit by default. */
  exit?: (code: number) => void;
  /** Test seam: a synchronous write to stderr by default. */
  writeStderr?: (text: string) => void;
}

/**
 * Keeps the process running when an automation's raw timer callback throws, and only then.
 * An uncaught exception, unlike a rejection, unwinds every frame on the stack: code that was
 * half way through something when it passed through may have left its state broken. `report`
 * answers true only for an exception it could log under an automation whose own callback was
 * the only code interrupted; every other exception ends the process as Node's default does
 * (the error on stderr, exit code 1), after a `fatal` log line, since nobody can say what state
 * the process is in. When another `uncaughtException` listener exists, its owner decides, as
 * with Node. Returns a function that removes the handler again.
 */
export function logAutomationExceptions(
  logger: Logger,
  report: (error: unknown) => boolean,
  options: UncaughtExceptionOptions = {},
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const writeStderr = options.writeStderr ?? ((text: string) => writeSync(2, text));
  const onException = (error: unknown, origin: NodeJS.UncaughtExceptionOrigin) => {
    if (origin === "uncaughtException" && report(error)) return;
    if (process.listenerCount("uncaughtException") > 1) return;
    logger.fatal("Uncaught exception that no automation owns; the process state is unknown, so Hearth exits", {
      err: error,
    });
    // Node's own report is synchronous; the logger's stdout may not be flushed before exit.
    writeStderr(`${inspect(error)}\n`);
    exit(1);
  };
  process.on("uncaughtException", onException);
  return () => process.off("uncaughtException", onException);
}
