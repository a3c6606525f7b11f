// The floor of `npm run bench:instructions`: a plain node:http server that answers every request
// with a small JSON body, in a child process like the app, so the instructions Node itself spends
// on a keep-alive HTTP request are measured in the same run as the app's.
import http from "node:http";

const body = JSON.stringify({ status: "ok" });
const server = http.createServer((request, response) => {
  // Read the body, as the app does, so a POST costs the floor what it costs the app to receive.
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
    response.end(body);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
// It leaves no work behind its requests: settled at once (bench/app-usage.mjs says what the apps do).
process.on("message", (message) => {
  if (message === "settle") process.send?.({ settled: true });
});
process.on("disconnect", () => {
  server.close();
  server.closeAllConnections();
});
