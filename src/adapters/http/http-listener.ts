import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HttpListener {
  readonly server: Server;
  readonly port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish, closes idle keep-alive
   * sockets at once, and cuts whatever is still open after `graceMs`.
   */
  close(graceMs?: number): Promise<void>;
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
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: bound,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
