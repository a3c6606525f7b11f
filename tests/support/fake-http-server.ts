/** A loopback HTTP server for the service fakes: records every request, answers through a handler. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  /** Answer the next N requests by destroying the socket (a device dropping off the network). */
  dropNext = 0;

  private constructor(
    private readonly server: Server,
    public handler: FakeHandler,
  ) {}

  static async start(handler: FakeHandler, port = 0): Promise<FakeHttpServer> {
    let fake: FakeHttpServer | null = null;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (!fake) return;
        if (fake.dropNext > 0) {
          fake.dropNext--;
          request.socket.destroy();
          return;
        }
        const body = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = body ? JSON.parse(body) : undefined;
        } catch {
          json = undefined;
        }
        const url = new URL(request.url ?? "/", "http://fake");
        const recorded: RecordedRequest = {
          method: request.method ?? "GET",
          url: request.url ?? "/",
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          body,
          json,
        };
        fake.requests.push(recorded);
        Promise.resolve(fake.handler(recorded, response)).catch((error: unknown) => {
          sendJson(response, 500, { error: String(error) });
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    fake = new FakeHttpServer(server, handler);
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
