// The messages a bench's app process answers: "rss" with its memory, the CPU time so far (µs;
// the parent takes a scenario's CPU per request from two of these) and the young generation's
// size (both semi-spaces), which grows with the load; "settle" with { settled: true } once the
// work the requests so far left behind (`settle`: the inventory events still to deliver) is done.
const { youngGenerationBytes } = await import("../dist/composition/small-heap.js");

export function answerUsageRequests(settle = async () => {}) {
  process.on("message", (message) => {
    if (message === "rss") {
      process.send?.({ ...process.memoryUsage(), cpu: process.cpuUsage(), young: youngGenerationBytes() });
    } else if (message === "settle") {
      void settle().then(() => process.send?.({ settled: true }));
    }
  });
}
