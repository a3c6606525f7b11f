import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  STATUS_CODES,
  type Server,
  type ServerResponse,
} from "node:http";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import type { Duplex } from "node:stream";

/** How long an idle keep-alive socket may still deliver a request once closing has begun. */
const IDLE_GRACE_MS = 1000;
const netServerClose = NetServer.prototype.close;

export interface HttpListener {
  readonly server: Server;
  readonly port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (each answered with
   * Connection: close, so keep-alive sockets close after their current response), closes
   * idle sockets at once, and cuts whatever is still open after `graceMs`.
   */
  close(graceMs?: number): Promise<void>;
}

/** The statuses Node itself gives a request it cannot parse; anything else is a 400. */
const UNPARSABLE_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Answers a request Node could not parse (a header block over its 16 KB limit, a malformed
 * request line) with the JSON error body every other answer has, where Node's own answer is a
 * bare status line. A socket that is gone, or already answering an earlier request, is closed.
 */
function answerUnparsable(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const status = UNPARSABLE_STATUS[error.code ?? ""] ?? 400;
  const message =
    status === 431
      ? "The request's headers (the URL included) are too large"
      : status === 408
        ? "The request took too long to arrive"
        : "The request could not be parsed as HTTP";
  const body = JSON.stringify({ statusCode: status, error: STATUS_CODES[status] ?? "Error", message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Listens on host:port (0 = any free port) and resolves once bound; rejects on EADDRINUSE etc. */
export async function listen(handler: RequestListener, port: number, host?: string): Promise<HttpListener> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("clientError", answerUnparsable);
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  // Responses not yet sent. Once closing, each goes out with Connection: close, so a busy
  // keep-alive client gets the answer to what it sent and then a closed connection, never a
  // socket cut mid-request (which would leave it unsure whether a write was committed).
  const pending = new Set<ServerResponse>();
  server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    if (closing) response.setHeader("Connection", "close");
    pending.add(response);
    response.on("close", () => pending.delete(response));
  });
  return {
    server,
    port: bound,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        for (const response of pending) {
          if (!response.headersSent) response.setHeader("Connection", "close");
        }
        const idle = setTimeout(() => server.closeIdleConnections(), Math.min(IDLE_GRACE_MS, graceMs));
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        idle.unref();
        force.unref();
        server.once("close", () => {
          clearTimeout(idle);
          clearTimeout(force);
          resolve();
        });
        // net.Server's close stops listening and leaves open connections alone; http.Server's
        // own close would also drop idle keep-alive sockets at once, racing a client that is
        // sending its next request on one (it would see a reset, not knowing whether the
        // request arrived). Idle sockets get IDLE_GRACE_MS to deliver one more request, which
        // is answered with Connection: close, before they are closed.
        netServerClose.call(server);
      });
      return closing;
    },
  };
}
