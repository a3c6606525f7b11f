/**
 * A fake Nanoleaf panel following the Nanoleaf OpenAPI: POST /api/v1/new (200 with
 * auth_token in pairing mode, 403 otherwise), GET /api/v1/<token>/ (all panel info), GET
 * and PUT /api/v1/<token>/state (204), /effects/effectsList, /effects/select, PUT /effects,
 * PUT /identify; 401 for an unknown token, 422 for a value out of range.
 */
import { FakeHttpServer, sendJson } from "./fake-http-server.js";
import type { ServerResponse } from "node:http";

export class FakeNanoleaf {
  pairingMode = false;
  readonly tokens = new Set<string>();
  identified = 0;
  readonly state = {
    on: { value: false },
    brightness: { value: 50, max: 100, min: 0 },
    hue: { value: 0, max: 360, min: 0 },
    sat: { value: 0, max: 100, min: 0 },
    ct: { value: 4000, max: 6500, min: 1200 },
    colorMode: "ct",
  };
  readonly effects = { select: "*Solid*", effectsList: ["Northern Lights", "Fireplace", "Snowfall"] };
  lastBrightnessDuration: number | undefined;

  private constructor(readonly server: FakeHttpServer) {}

  static async start(): Promise<FakeNanoleaf> {
    const holder: { fake?: FakeNanoleaf } = {};
    const server = await FakeHttpServer.start((request, response) => holder.fake?.handle(request, response));
    holder.fake = new FakeNanoleaf(server);
    return holder.fake;
  }

  get url(): string {
    return this.server.url;
  }

  private handle(request: Parameters<FakeHttpServer["handler"]>[0], response: ServerResponse): void {
    if (request.method === "POST" && request.path === "/api/v1/new") {
      if (!this.pairingMode) {
        response.writeHead(403).end();
        return;
      }
      const token = `Tk${Math.random().toString(36).slice(2).padEnd(14, "x")}${Date.now().toString(36)}`
        .slice(0, 32)
        .padEnd(32, "Z");
      this.tokens.add(token);
      sendJson(response, 200, { auth_token: token });
      return;
    }
    const match = /^\/api\/v1\/([^/]+)(\/.*)?$/.exec(request.path);
    if (!match?.[1] || !this.tokens.has(match[1])) {
      response.writeHead(401).end();
      return;
    }
    const rest = match[2] ?? "/";
    const body = (request.json ?? {}) as Record<string, { value?: unknown; duration?: unknown } | string>;
    if (request.method === "GET" && (rest === "/" || rest === "")) {
      sendJson(response, 200, {
        name: "Shapes 1A2B",
        serialNo: "S19124C8036",
        manufacturer: "Nanoleaf",
        firmwareVersion: "9.2.4",
        model: "NL42",
        state: this.state,
        effects: this.effects,
      });
      return;
    }
    if (rest === "/state" && request.method === "GET") {
      sendJson(response, 200, this.state);
      return;
    }
    if (rest === "/state" && request.method === "PUT") {
      const limits: Record<string, [number, number]> = {
        brightness: [0, 100],
        hue: [0, 360],
        sat: [0, 100],
        ct: [1200, 6500],
      };
      for (const [field, [min, max]] of Object.entries(limits)) {
        const value = (body[field] as { value?: unknown } | undefined)?.value;
        if (value !== undefined && (typeof value !== "number" || value < min || value > max)) {
          response.writeHead(422).end();
          return;
        }
      }
      const on = (body.on as { value?: unknown } | undefined)?.value;
      if (typeof on === "boolean") this.state.on.value = on;
      for (const field of ["brightness", "hue", "sat", "ct"] as const) {
        const value = (body[field] as { value?: number } | undefined)?.value;
        if (typeof value === "number") this.state[field].value = value;
      }
      const duration = (body.brightness as { duration?: number } | undefined)?.duration;
      if (duration !== undefined) this.lastBrightnessDuration = duration;
      if (body.hue || body.sat) this.state.colorMode = "hs";
      if (body.ct) this.state.colorMode = "ct";
      response.writeHead(204).end();
      return;
    }
    if (rest === "/effects/effectsList" && request.method === "GET") {
      sendJson(response, 200, this.effects.effectsList);
      return;
    }
    if (rest === "/effects/select" && request.method === "GET") {
      sendJson(response, 200, this.effects.select);
      return;
    }
    if (rest === "/effects" && request.method === "PUT") {
      const select = body.select;
      if (typeof select !== "string" || !this.effects.effectsList.includes(select)) {
        response.writeHead(404).end();
        return;
      }
      this.effects.select = select;
      this.state.colorMode = "effect";
      response.writeHead(204).end();
      return;
    }
    if (rest === "/identify" && request.method === "PUT") {
      this.identified++;
      response.writeHead(204).end();
      return;
    }
    response.writeHead(404).end();
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
