import { existsSync, watch as watchFiles } from "node:fs";
import path from "node:path";
import type { Logger } from "../../ports/logger.js";
import { systemTimer, type Timer, type TimerHandle } from "../../ports/timer.js";

const AUTOMATION_FILE = /\.(ts|mts|js|mjs)$/;
const DECLARATION_FILE = /\.d\.(ts|mts)$/;

/** One file that changed: `exists` false means it was deleted (or renamed away). */
export interface AutomationFileChange {
  file: string;
  exists: boolean;
}

/** Starts watching `dir`; calls `listener` with file names relative to it. Returns how to stop. */
export type WatchDirectory = (
  dir: string,
  recursive: boolean,
  listener: (filename: string | null) => void,
) => { close(): void };

export interface AutomationWatcherOptions {
  dir: string;
  recursive: boolean;
  logger: Logger;
  /** Gets every file of a burst once, after it went quiet. Called one burst at a time. */
  onChange(changes: AutomationFileChange[]): Promise<void>;
  /**
   * Quiet time that ends a burst. Editors save in several steps (write a temporary file,
   * rename it over the original, touch it again); one save must cause one reload. Default 150 ms.
   */
  debounceMs?: number;
  timer?: Timer;
  /** Test seam; node's fs.watch by default. */
  watch?: WatchDirectory;
}

const nodeWatch: WatchDirectory = (dir, recursive, listener) => {
  const watcher = watchFiles(dir, { recursive, persistent: false }, (_event, filename) =>
    listener(filename ? String(filename) : null),
  );
  return watcher;
};

/**
 * Watches the automations directory for changed, added and removed automation files
 * (`AUTOMATIONS_WATCH`), and hands each quiet burst of changes over once.
 */
export class AutomationWatcher {
  private readonly pending = new Set<string>();
  private readonly timer: Timer;
  private handle: TimerHandle | undefined;
  private watcher: { close(): void } | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly root: string;

  constructor(private readonly options: AutomationWatcherOptions) {
    this.timer = options.timer ?? systemTimer;
    this.root = path.resolve(options.dir);
  }

  start(): void {
    if (this.watcher) return;
    this.watcher = (this.options.watch ?? nodeWatch)(this.root, this.options.recursive, (filename) =>
      this.noticed(filename),
    );
    this.options.logger.info("Watching automations for changes", { dir: this.root });
  }

  /** Stops watching; a burst being handled finishes first. */
  async stop(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.handle) this.timer.clearTimeout(this.handle);
    this.handle = undefined;
    this.pending.clear();
    await this.running;
  }

  private noticed(filename: string | null): void {
    if (!this.watcher || filename === null) return;
    if (!AUTOMATION_FILE.test(filename) || DECLARATION_FILE.test(filename)) return;
    const file = path.resolve(this.root, filename);
    if (file.split(path.sep).includes("node_modules")) return;
    if (!this.options.recursive && path.dirname(file) !== this.root) return;
    this.pending.add(file);
    if (this.handle) this.timer.clearTimeout(this.handle);
    this.handle = this.timer.setTimeout(() => this.flush(), this.options.debounceMs ?? 150);
  }

  private flush(): void {
    this.handle = undefined;
    const changes = [...this.pending].sort().map((file) => ({ file, exists: existsSync(file) }));
    this.pending.clear();
    this.running = this.running.then(async () => {
      try {
        await this.options.onChange(changes);
      } catch (error) {
        this.options.logger.error("Reloading changed automations failed", { err: error });
      }
    });
  }
}
