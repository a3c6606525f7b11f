import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import {
  FetchHttpClient,
  HttpRequestFailedError,
  retryDelay,
} from "../../../src/adapters/http-client/fetch-http-client.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, call: number) => void;

describe("FetchHttpClient", () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  let requests: Recorded[];
  let logger: MemoryLogger;
  let sleeps: number[];
  let client: FetchHttpClient;

  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        handler(req, res, requests.length);
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    requests = [];
    sleeps = [];
    logger = new MemoryLogger();
    client = new FetchHttpClient(logger, {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    handler = (_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ hello: "world" }));
    };
  });

  it("GETs by default and parses a JSON response", async () => {
    const response = await client.request<{ hello: string }>(`${base}/thing`);
    expect(response).to.deep.include({ status: 200, ok: true, data: { hello: "world" } });
    expect(response.headers["content-type"]).to.equal("application/json");
    expect(requests[0]).to.include({ method: "GET", url: "/thing", body: "" });
  });

  it("serialises bodies as JSON and sets the content type", async () => {
    await client.post(`${base}/items`, { name: "peas", count: 2 }, { "x-extra": "1" });
    expect(requests[0]!.method).to.equal("POST");
    expect(requests[0]!.headers["content-type"]).to.equal("application/json");
    expect(requests[0]!.headers["x-extra"]).to.equal("1");
    expect(JSON.parse(requests[0]!.body)).to.deep.equal({ name: "peas", count: 2 });
  });

  it("keeps a caller's own content type", async () => {
    await client.request(`${base}/x`, {
      method: "PUT",
      body: { a: 1 },
      headers: { "Content-Type": "application/merge-patch+json" },
    });
    expect(requests[0]!.headers["content-type"]).to.equal("application/merge-patch+json");
  });

  it("sends PUT, PATCH and DELETE through the shorthands", async () => {
    await client.put(`${base}/a`, { a: 1 });
    await client.patch(`${base}/b`, { b: 2 });
    await client.del(`${base}/c`);
    await client.get(`${base}/d`, { accept: "text/plain" });
    expect(requests.map((r) => r.method)).to.deep.equal(["PUT", "PATCH", "DELETE", "GET"]);
    expect(requests[3]!.headers.accept).to.equal("text/plain");
  });

  it("returns text for non-JSON responses and JSON-looking text as parsed JSON", async () => {
    handler = (_req, res, call) => {
      res.setHeader("content-type", "text/plain");
      res.end(call === 1 ? "plain words" : '{"a":1}');
    };
    expect((await client.get(`${base}/t`)).data).to.equal("plain words");
    expect((await client.get(`${base}/t`)).data).to.deep.equal({ a: 1 });
  });

  it("returns the text when a JSON-labelled body does not parse", async () => {
    handler = (_req, res) => {
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.end("not json");
    };
    expect((await client.get(`${base}/t`)).data).to.equal("not json");
  });

  it("returns 4xx responses with ok false and never retries them", async () => {
    handler = (_req, res) => {
      res.statusCode = 404;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ error: "nope" }));
    };
    const response = await client.request(`${base}/missing`, { retries: 3 });
    expect(response).to.deep.include({ status: 404, ok: false, data: { error: "nope" } });
    expect(requests).to.have.length(1);
    expect(sleeps).to.deep.equal([]);
  });

  it("retries 5xx with doubling backoff and returns the first success", async () => {
    handler = (_req, res, call) => {
      res.statusCode = call < 3 ? 503 : 200;
      res.end(call < 3 ? "busy" : "done");
    };
    const response = await client.request(`${base}/flaky`, { retries: 5 });
    expect(response).to.deep.include({ status: 200, ok: true, data: "done" });
    expect(requests).to.have.length(3);
    expect(sleeps).to.deep.equal([500, 1000]);
  });

  it("returns the last 5xx response when retries run out", async () => {
    handler = (_req, res) => {
      res.statusCode = 500;
      res.end("broken");
    };
    const response = await client.request(`${base}/down`, { retries: 2 });
    expect(response).to.deep.include({ status: 500, ok: false, data: "broken" });
    expect(requests).to.have.length(3);
  });

  it("does not retry by default", async () => {
    handler = (_req, res) => {
      res.statusCode = 502;
      res.end();
    };
    await client.get(`${base}/down`);
    expect(requests).to.have.length(1);
  });

  it("caps the backoff at 10 seconds", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).to.deep.equal([500, 1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it("retries a refused connection and then throws, masking secrets in the logs", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/weather?q=oslo&appid=SECRET123&token=abc`;
    const error = await client.request(url, { retries: 2 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(HttpRequestFailedError);
    expect((error as HttpRequestFailedError).attempts).to.equal(3);
    expect((error as Error).message).to.not.include("SECRET123");
    expect(sleeps).to.deep.equal([500, 1000]);
    const logged = JSON.stringify(logger.entries);
    expect(logged).to.include("appid=***");
    expect(logged).to.include("token=***");
    expect(logged).to.not.include("SECRET123");
  });

  it("does not retry a request that cannot be sent at all", async () => {
    const error = await client.request("not a url", { retries: 3 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(HttpRequestFailedError);
    expect((error as HttpRequestFailedError).attempts).to.equal(1);
    expect(sleeps).to.deep.equal([]);
  });

  it("retries a timeout like a network error", async () => {
    handler = (_req, res, call) => {
      if (call === 1) return; // first attempt never answers
      res.end("late but fine");
    };
    const response = await client.request(`${base}/slow-once`, { timeout: 50, retries: 1 });
    expect(response.data).to.equal("late but fine");
    expect(sleeps).to.deep.equal([500]);
  });

  it("gives up after the timeout", async () => {
    handler = () => {
      // never answers
    };
    const error = await client.request(`${base}/slow`, { timeout: 50 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).to.be.instanceOf(HttpRequestFailedError);
    expect((error as Error).message).to.include("timed out");
  });

  it("fails a response past maxResponseBytes without reading on, declared or streamed, and never retries it", async () => {
    let streamed = 0;
    let stopped = false;
    let feedClosed: Promise<unknown> = Promise.resolve();
    handler = (req, res) => {
      if (req.url === "/declared") {
        res.setHeader("content-length", "2000");
        res.end("x".repeat(2000));
        return;
      }
      // A feed without end, as a camera's MJPEG stream: it only stops when the client goes.
      feedClosed = once(res, "close").then(() => {
        stopped = true;
      });
      const more = () => {
        while (!stopped && res.write(Buffer.alloc(16 * 1024, 1))) streamed += 16 * 1024;
        if (!stopped) res.once("drain", more);
      };
      more();
    };
    for (const route of ["/declared", "/feed"]) {
      const error = await client.request(`${base}${route}`, { maxResponseBytes: 1000, retries: 2 }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error, route).to.be.instanceOf(HttpRequestFailedError);
      expect((error as Error).message).to.include("larger than 1000 bytes");
    }
    expect(requests, "not retried").to.have.length(2);
    expect(sleeps).to.deep.equal([]);
    await feedClosed;
    expect(streamed, "the feed stopped soon after the bound").to.be.below(8 * 1024 * 1024);
  });

  it("reads a body of exactly maxResponseBytes", async () => {
    handler = (_req, res) => res.end("y".repeat(1000));
    const response = await client.request(`${base}/exact`, { maxResponseBytes: 1000 });
    expect(response.data).to.equal("y".repeat(1000));
  });
});
