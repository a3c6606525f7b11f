// The messages a bench's app process answers: "rss" with its memory, its peak RSS since it
// started, the CPU time so far (µs; the parent takes a scenario's CPU per request from two of
// these) and the young generation's size (both semi-spaces), which grows with the load;
// "settle" with { settled: true } once the work the requests so far left behind (`settle`: the
// inventory events still to deliver) is done.
const { readFileSync } = await import("node:fs");
const { youngGenerationBytes } = await import("../dist/composition/small-heap.js");

/** The process's peak RSS since it started (Linux's VmHWM), in bytes; 0 where /proc has none. */
function peakRss() {
  try {
    const kilobytes = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kilobytes ? Number(kilobytes) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function answerUsageRequests(settle = async () => {}) {
  process.on("message", (message) => {
    if (message === "rss") {
      process.send?.({
        ...process.memoryUsage(),
        cpu: process.cpuUsage(),
        young: youngGenerationBytes(),
        peak: peakRss(),
      });
    } else if (message === "settle") {
      void settle().then(() => process.send?.({ settled: true }));
    }
  });
}
