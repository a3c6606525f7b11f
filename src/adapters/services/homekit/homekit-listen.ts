/**
 * Where a bridge's HAP server listens. hap-nodejs's `bind` option restricts the mDNS
 * advertisement, but for one address or any interface name its server still listens on the
 * unspecified address (0.0.0.0 or ::), so `HOMEKIT_BIND=127.0.0.1` left the bridge reachable
 * from the whole network. Here the server listens on exactly the addresses `bind` names.
 */
import { createServer, isIP, type Server, type Socket } from "node:net";
import { networkInterfaces, type NetworkInterfaceInfo } from "node:os";
import type { Bridge } from "hap-nodejs";

/** Raised when HOMEKIT_BIND names an interface this machine does not have (or one without an address). */
export class HomeKitBindError extends Error {
  readonly code = "HOMEKIT_BIND_UNKNOWN";

  constructor(readonly entry: string) {
    super(`HOMEKIT_BIND names "${entry}", which is neither an IP address nor an interface with an address here`);
    this.name = "HomeKitBindError";
  }
}

/**
 * The addresses the HAP server must listen on for `bind`, or null for all of them (no `bind`,
 * or `::` / `0.0.0.0` in it). Interface names become their current addresses; an IPv6
 * link-local address carries its interface as zone (`fe80::1%eth0`).
 */
export function listenAddresses(
  bind: string | readonly string[] | undefined,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] | null {
  const entries = bind === undefined ? [] : typeof bind === "string" ? [bind] : [...bind];
  if (entries.length === 0 || entries.includes("::") || entries.includes("0.0.0.0")) return null;
  const addresses = new Set<string>();
  for (const entry of entries) {
    if (isIP(entry) !== 0) {
      addresses.add(entry);
      continue;
    }
    const found = interfaces[entry] ?? [];
    if (found.length === 0) throw new HomeKitBindError(entry);
    for (const info of found) {
      addresses.add(info.family === "IPv6" && info.scopeid ? `${info.address}%${entry}` : info.address);
    }
  }
  return [...addresses];
}

interface ListenableServer {
  listen(port?: number, host?: string): void;
}

/**
 * Makes `bridge`'s next HAP server listen on `address` instead of the host hap-nodejs picks.
 * hap-nodejs creates the server inside publish() and listens at once, so the server is caught
 * as it is assigned to the bridge.
 */
export function listenOn(bridge: Bridge, address: string): void {
  let current = bridge._server;
  Object.defineProperty(bridge, "_server", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (server: (typeof bridge)["_server"]) => {
      if (server) {
        const listenable = server as unknown as ListenableServer;
        const listen = listenable.listen.bind(server);
        listenable.listen = (port?: number) => listen(port, address);
      }
      current = server;
    },
  });
}

/**
 * Listens on the further `addresses` at `port` and hands each connection to `primary`, the
 * HAP server's own socket server: one net.Server binds one address. Resolves with the
 * listeners once all listen; rejects (closing those that did) when one cannot.
 */
export async function listenAlso(primary: Server, addresses: readonly string[], port: number): Promise<Server[]> {
  const servers: Server[] = [];
  try {
    for (const address of addresses) {
      const server = createServer((socket: Socket) => primary.emit("connection", socket));
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, address, () => {
          server.off("error", reject);
          resolve();
        });
      });
    }
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
  return servers;
}

/** Closes listeners from listenAlso; connections already handed over belong to the HAP server. */
export async function closeAll(servers: readonly Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
    ),
  );
}
