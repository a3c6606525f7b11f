/**
 * A loopback Open Food Facts, answering `GET /api/v2/product/{barcode}` as the published API v2
 * does (https://openfoodfacts.github.io/openfoodfacts-server/api/): a known product is
 * `{"code", "product": {…the asked fields}, "status": 1, "status_verbose": "product found"}`, an
 * unknown one HTTP 404 with `{"code", "status": 0, "status_verbose": "product not found"}`.
 * `mode` turns it into a misbehaving server for the failure paths.
 */
import type { ServerResponse } from "node:http";
import { FakeHttpServer, type RecordedRequest, sendJson } from "./fake-http-server.js";

export type FakeOpenFoodFactsMode = "normal" | "garbage" | "wrong-shape" | "huge" | "silent" | "error";

export class FakeOpenFoodFacts {
  /** Products by code: the fields the API would hold. */
  readonly products = new Map<string, Record<string, string>>();
  mode: FakeOpenFoodFactsMode = "normal";
  /** Responses held open by the "silent" mode, ended on close. */
  private readonly held: ServerResponse[] = [];

  private constructor(readonly server: FakeHttpServer) {}

  static async start(): Promise<FakeOpenFoodFacts> {
    let fake: FakeOpenFoodFacts | undefined;
    const server = await FakeHttpServer.start((request, response) => fake?.answer(request, response));
    fake = new FakeOpenFoodFacts(server);
    return fake;
  }

  get url(): string {
    return this.server.url;
  }

  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  private answer(request: RecordedRequest, response: ServerResponse): void {
    const match = /^\/api\/v2\/product\/([^/]+)$/.exec(request.path);
    if (request.method !== "GET" || !match) {
      sendJson(response, 404, { status: 0, status_verbose: "no such endpoint" });
      return;
    }
    const code = decodeURIComponent(match[1] as string);
    switch (this.mode) {
      case "garbage":
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<html><body>Maintenance</body></html>");
        return;
      case "wrong-shape":
        sendJson(response, 200, { status: "found", product: ["Fish fingers"] });
        return;
      case "huge": {
        // A valid answer, padded far past any product's size, sent without a length.
        response.writeHead(200, { "content-type": "application/json" });
        response.write(`{"code":"${code}","status":1,"product":{"product_name":"Fish fingers","padding":"`);
        const block = "x".repeat(64 * 1024);
        for (let index = 0; index < 32; index++) response.write(block);
        response.end(`"}}`);
        return;
      }
      case "silent":
        this.held.push(response);
        return;
      case "error":
        sendJson(response, 503, { status: 0, status_verbose: "service unavailable" });
        return;
      case "normal": {
        const product = this.products.get(code);
        if (!product) {
          sendJson(response, 404, { code, status: 0, status_verbose: "product not found" });
          return;
        }
        const fields = (request.query.get("fields") ?? "").split(",").filter(Boolean);
        const asked =
          fields.length === 0
            ? product
            : Object.fromEntries(fields.flatMap((f) => (f in product ? [[f, product[f]]] : [])));
        sendJson(response, 200, { code, product: asked, status: 1, status_verbose: "product found" });
      }
    }
  }

  async close(): Promise<void> {
    for (const response of this.held.splice(0)) response.destroy();
    await this.server.close();
  }
}
