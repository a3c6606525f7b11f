/**
 * Child process for the crash test: changes state as fast as it can with persistence on,
 * so a SIGKILL lands in the middle of writes. Prints "writing" once the first save is done.
 */
import { MemoryLogger } from "../../src/adapters/logging/memory-logger.js";
import { JsonFileStore } from "../../src/adapters/state/json-file-store.js";
import { StateManager } from "../../src/application/automation/state-manager.js";

const file = process.argv[2] as string;
const logger = new MemoryLogger();
const state = new StateManager({ persist: true }, { logger, store: new JsonFileStore(file, logger), writeDelayMs: 1 });
await state.load();
let counter = Number(state.get("counter", 0));
const padding = "x".repeat(64 * 1024);
await state.save();
process.stdout.write("writing\n");
for (;;) {
  counter++;
  state.set("counter", counter);
  state.set("payload", { counter, padding });
  await state.flush();
}
