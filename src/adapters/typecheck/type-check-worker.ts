// The worker thread behind WorkerTypeChecker: type checks block for seconds, so they run
// here, off the engine's event loop.
import { parentPort } from "node:worker_threads";
import { TypeScriptChecker } from "./typescript-checker.js";

const checker = new TypeScriptChecker();

parentPort?.on("message", async (request: { id: number; files: string[] }) => {
  try {
    parentPort?.postMessage({ id: request.id, diagnostics: await checker.check(request.files) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
