import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TypeChecker, TypeDiagnostic } from "../../ports/type-checker.js";
import { CheckKeeper } from "./kept-type-check.js";
import type { TypeCheckResult } from "./typescript-checker.js";

interface Pending {
  resolve(result: TypeCheckResult): void;
  reject(error: Error): void;
}

/** The worker script beside this file: .ts when running from source (tsx), .js when built. */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.replace(/worker-type-checker\.(ts|js)$/, "type-check-worker.ts");
  const javascript = here.replace(/worker-type-checker\.(ts|js)$/, "type-check-worker.js");
  return here.endsWith(".ts") && existsSync(typescript) ? typescript : javascript;
}

/** Where a service keeps its last check, in DATA_DIR. */
export const TYPE_CHECK_FILE = "automations-typecheck.json";

/** How long the worker outlives its last check, unless `idleMs` says otherwise. */
export const TYPE_CHECK_IDLE_MS = 30_000;

/** tsx's loader (`node --import tsx`), by its file URL: resolved from here, not the working directory. */
function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
}

/**
 * Type checks in a child process, started on the first check and kept while checks keep
 * coming (its compiler program makes a re-check after a save fast). It exits `idleMs` after
 * the last one: the program holds a couple of hundred MB, which a small board should not carry
 * between edits, and a process (unlike a worker thread) gives all of it back. The process and
 * the timer are unref'd: they never keep Hearth alive.
 */
export class WorkerTypeChecker implements TypeChecker {
  private worker: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private sequence = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly idleMs: number;
  private readonly keeper: CheckKeeper;
  /** Set by close(): a check asked for afterwards (its kept file read while the engine stopped) starts no process. */
  private closed = false;

  /**
   * @param options.keptIn a file that keeps the last check: a check of the same files while
   *   nothing the compiler read has changed answers from it without starting the process.
   */
  constructor(options: { idleMs?: number; keptIn?: string } = {}) {
    this.idleMs = options.idleMs ?? TYPE_CHECK_IDLE_MS;
    this.keeper = new CheckKeeper(options.keptIn);
  }

  /** Whether a worker (and its compiler program) is held right now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  check(files: readonly string[]): Promise<TypeDiagnostic[]> {
    return this.keeper.check(files, (roots) => this.checkReading(roots));
  }

  /** A check in the child process, with the files the compiler read; nothing kept. */
  checkReading(files: readonly string[]): Promise<TypeCheckResult> {
    if (this.closed) return Promise.reject(new Error("The type checker was closed"));
    this.cancelRelease();
    const worker = this.start();
    const id = ++this.sequence;
    const checked = new Promise<TypeCheckResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.send({ id, files: [...files] });
    });
    // Settled either way: the release waits for every check in flight.
    checked.then(
      () => this.releaseWhenIdle(),
      () => this.releaseWhenIdle(),
    );
    return checked;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelRelease();
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error("The type checker was closed"));
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      const exited = once(worker, "exit");
      worker.kill();
      await exited;
    }
  }

  private releaseWhenIdle(): void {
    if (this.pending.size > 0 || !this.worker) return;
    this.cancelRelease();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const worker = this.worker;
      if (!worker || this.pending.size > 0) return;
      this.worker = undefined;
      worker.kill();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private cancelRelease(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private start(): ChildProcess {
    if (this.worker) return this.worker;
    const file = workerFile();
    // From source (npm start, tests) the worker is TypeScript, run through tsx's loader; built,
    // it is plain JavaScript. Hearth's own flags (inspector, profiler) are not passed on. A
    // 1 MB young generation takes about 25 MB off the compiler's peak at no cost in time (the
    // program is long-lived data that the young generation would only copy); without V8's
    // optimising compiler, whose code and feedback a one-off check hardly repays, another
    // 17 MB, for a first check as fast within the noise (docs/performance.md).
    const worker = fork(file, [], {
      execArgv: [...(file.endsWith(".ts") ? ["--import", tsxLoaderUrl()] : []), "--max-semi-space-size=1", "--no-opt"],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    worker.unref();
    worker.channel?.unref();
    worker.on("message", (message: { id: number; diagnostics?: TypeDiagnostic[]; read?: string[]; error?: string }) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(message.error));
      else pending.resolve({ diagnostics: message.diagnostics ?? [], read: message.read ?? [] });
    });
    // A worker let go when idle, or closed, had no checks left; only the current one's
    // failure concerns the checks waiting on it.
    worker.on("error", (error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(error);
    });
    worker.on("exit", () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error("The type-check worker exited"));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
