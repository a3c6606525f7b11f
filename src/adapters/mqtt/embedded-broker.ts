import { createServer, type Server, Socket } from "node:net";

/** An in-process MQTT broker (aedes) listening on TCP, for machines without one. */
export interface EmbeddedBroker {
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Starts aedes on host:port (port 0 picks a free one). Rejects if the port is taken. */
export async function startEmbeddedBroker(port: number, host = "127.0.0.1"): Promise<EmbeddedBroker> {
  // Loaded only when no broker answers: most homes run Mosquitto, and aedes costs ~13 MB of RSS.
  const { Aedes } = await import("aedes");
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    host,
    port: boundPort,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/** True when something accepts TCP connections on host:port within `timeoutMs`. */
export function isPortAnswering(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.connect(port, host);
  });
}
