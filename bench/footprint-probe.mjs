// Preloaded into the Hearth process the footprint bench measures (node --expose-gc --import
// this-file bin/hearth.js start). On SIGUSR2 it collects garbage fully and reports the process's
// memory on stderr as one `FOOTPRINT {json}` line; it does nothing else.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  process.stderr.write(`FOOTPRINT ${JSON.stringify({ ...usage, gc: typeof globalThis.gc === "function" })}\n`);
});
