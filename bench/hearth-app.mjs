// `hearth start` as a bench's app process: the whole of Hearth from the compiled dist/, as
// bin/hearth.js starts it (heap sized as it sizes it), with default settings: the engine and
// its automations (AUTOMATIONS_DIR, the example ones by default), the inventory events joined
// to the engine and MQTT, the web app. Beside bench/inventory-app.mjs (the inventory API
// alone) it shows what the rest of the process costs the API's requests. Answers the same
// messages: "rss" (bench/app-usage.mjs); disconnect stops it.
const { keepHeapSmall, letYoungGenerationGrow } = await import("../dist/composition/small-heap.js");
keepHeapSmall();
const { startHearth } = await import("../dist/composition/hearth.js");
const { answerUsageRequests } = await import("./app-usage.mjs");

// Any free ports: the bench reads the API's from the message below.
const hearth = await startHearth({ apiPort: 0, httpPort: 0 });
letYoungGenerationGrow();
answerUsageRequests(async () => {
  // What a write leaves behind: its events go to the engine and MQTT, the summaries follow.
  await hearth.inventoryLink.dispatcher.drain();
  await hearth.inventoryLink.publisher?.settled();
});
// The start-up type check begins once Hearth has started. Answering after it has answered keeps a
// bench's wait for its process (bench/process-tree.ts) from looking before the process began.
await hearth.engine.lastTypeCheck;
process.send?.({ port: hearth.apiPort });
process.on("disconnect", async () => {
  await hearth.stop();
});
