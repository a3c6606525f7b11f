// The child process behind WorkerTypeChecker: type checks block for seconds and their
// compiler program holds a couple of hundred MB, so they run here, off the engine's event loop
// and out of its memory, which is all returned to the system when this process exits.
import { TypeScriptChecker } from "./typescript-checker.js";

const checker = new TypeScriptChecker();

process.on("message", async (request: { id: number; files: string[] }) => {
  try {
    process.send?.({ id: request.id, ...(await checker.checkReading(request.files)) });
  } catch (error) {
    process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
// Hearth gone (stopped, crashed, killed): nothing is left to check for.
process.on("disconnect", () => process.exit(0));
