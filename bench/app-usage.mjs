// The messages a bench's app process answers: "rss" with its memory, its peak RSS since it
// started, the CPU time so far (µs; the parent takes a scenario's CPU per request from two of
// these) and the young generation's size (both semi-spaces), which grows with the load;
// "settle" with { settled: true } once the work the requests so far left behind (`settle`: the
// inventory events still to deliver) is done. With "rss" also come the latencies of the HTTP
// requests the process served since the previous "rss" (`served`): from the moment it had read
// a request to the moment it finished the answer. Against the client's latency, that tells time
// spent in the app from time a request waited unread in its socket.
const { readFileSync } = await import("node:fs");
const diagnostics = await import("node:diagnostics_channel");
const { performance } = await import("node:perf_hooks");
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

// Bounded whatever the load: past this many requests between two "rss", later ones are counted
// but not kept (5 s at the bench's rates is a few thousand). Grown as requests come, so an idle
// app's RSS, which the benches report, holds none of it.
const SERVED_CAPACITY = 1 << 20;
const servedMs = [];
let servedCount = 0;
const readAt = new WeakMap();
// Node's HTTP server publishes both moments for every server in the process: `hearth start`'s
// servers are measured without a handle on them.
diagnostics.subscribe("http.server.request.start", ({ response }) => readAt.set(response, performance.now()));
diagnostics.subscribe("http.server.response.finish", ({ response }) => {
  const start = readAt.get(response);
  if (start === undefined) return;
  if (servedMs.length < SERVED_CAPACITY) servedMs.push(performance.now() - start);
  servedCount++;
});

/** p50 and p99 (ms) of the requests served since the last call, which starts a new window. */
function takeServed() {
  const kept = Float64Array.from(servedMs).sort();
  const count = servedCount;
  servedMs.length = 0;
  servedCount = 0;
  const at = (share) => (kept.length ? kept[Math.min(kept.length - 1, Math.floor(share * kept.length))] : 0);
  return { count, p50: at(0.5), p99: at(0.99) };
}

export function answerUsageRequests(settle = async () => {}) {
  process.on("message", (message) => {
    if (message === "rss") {
      process.send?.({
        ...process.memoryUsage(),
        cpu: process.cpuUsage(),
        young: youngGenerationBytes(),
        peak: peakRss(),
        served: takeServed(),
      });
    } else if (message === "settle") {
      void settle().then(() => process.send?.({ settled: true }));
    }
  });
}
