import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { TypeChecker, TypeDiagnostic } from "../../ports/type-checker.js";

interface Pending {
  resolve(diagnostics: TypeDiagnostic[]): void;
  reject(error: Error): void;
}

/** The worker script beside this file: .ts when running from source (tsx), .js when built. */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.replace(/worker-type-checker\.(ts|js)$/, "type-check-worker.ts");
  const javascript = here.replace(/worker-type-checker\.(ts|js)$/, "type-check-worker.js");
  return here.endsWith(".ts") && existsSync(typescript) ? typescript : javascript;
}

/** tsx's ESM loader API (its CommonJS build cannot be imported from a worker). */
function tsxApiUrl(): string {
  return pathToFileURL(
    createRequire(import.meta.url)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
}

/**
 * Type checks in a worker thread, started on the first check and kept (its compiler
 * program makes re-checks fast). The worker is unref'd: it never keeps the process alive.
 */
export class WorkerTypeChecker implements TypeChecker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private sequence = 0;

  check(files: readonly string[]): Promise<TypeDiagnostic[]> {
    const worker = this.start();
    const id = ++this.sequence;
    return new Promise<TypeDiagnostic[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, files: [...files] });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error("The type checker was closed"));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const file = workerFile();
    // From source (npm start, tests) the worker is TypeScript: it registers tsx's loader
    // itself, since a worker does not always inherit the loader the parent was started with.
    const worker = file.endsWith(".ts")
      ? new Worker(
          `import(${JSON.stringify(tsxApiUrl())}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(file).href)}); });`,
          { eval: true },
        )
      : new Worker(file);
    worker.unref();
    worker.on("message", (message: { id: number; diagnostics?: TypeDiagnostic[]; error?: string }) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(message.error));
      else pending.resolve(message.diagnostics ?? []);
    });
    worker.on("error", (error) => {
      this.worker = undefined;
      this.failAll(error);
    });
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = undefined;
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
