import { expect } from "chai";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import request from "supertest";
import { trackRouteTemplate, UNMATCHED_ROUTE } from "../../../src/adapters/services/metrics/route-template.js";

/** An app that records the route template of every finished request. */
function appWithTemplates() {
  const seen: string[] = [];
  const app = express();
  app.use((req, res, next) => {
    const template = trackRouteTemplate(req);
    res.once("finish", () => seen.push(template()));
    next();
  });
  return { app, seen };
}

const ok: RequestHandler = (_req, res) => {
  res.json({ ok: true });
};
const unauthorized: RequestHandler = (_req, _res, next) => {
  next(Object.assign(new Error("no token"), { status: 401 }));
};
const outerErrors: ErrorRequestHandler = (error, _req, res, _next) => {
  res.status(error.status ?? 500).json({ error: error.message });
};

describe("route templates for metrics", () => {
  it("names a plain route under a mounted router", async () => {
    const { app, seen } = appWithTemplates();
    const api = express.Router();
    api.get("/automations/:name", ok);
    app.use("/api", api);
    await request(app).get("/api/automations/porch-light");
    expect(seen).to.deep.equal(["/api/automations/:name"]);
  });

  it("turns the parameters of nested router mounts back into their pattern", async () => {
    const { app, seen } = appWithTemplates();
    const items = express.Router({ mergeParams: true });
    items.get("/", ok);
    items.get("/:iid", ok);
    const freezers = express.Router();
    freezers.get("/:fid", ok);
    const api = express.Router();
    api.use("/households/:hid/items", items);
    api.use("/households/:hid/freezers", freezers);
    app.use("/api/v1", api);

    await request(app).get("/api/v1/households/ck9household1/items");
    await request(app).get("/api/v1/households/ck9household2/items/ck9item");
    await request(app).get("/api/v1/households/ck9household3/freezers/ck9freezer");
    expect(seen).to.deep.equal([
      "/api/v1/households/:hid/items",
      "/api/v1/households/:hid/items/:iid",
      "/api/v1/households/:hid/freezers/:fid",
    ]);
  });

  it("keeps the full template when an outer error handler answers", async () => {
    const { app, seen } = appWithTemplates();
    const items = express.Router({ mergeParams: true });
    items.get("/:iid", unauthorized);
    const api = express.Router();
    api.get("/households/:hid", unauthorized);
    api.use("/households/:hid/items", items);
    app.use("/api/v1", api);
    app.use(outerErrors);

    expect((await request(app).get("/api/v1/households/h1")).status).to.equal(401);
    expect((await request(app).get("/api/v1/households/h1/items/i1")).status).to.equal(401);
    expect(seen).to.deep.equal(["/api/v1/households/:hid", "/api/v1/households/:hid/items/:iid"]);
  });

  it("labels a request answered inside a router but by no route with that router's pattern", async () => {
    const { app, seen } = appWithTemplates();
    const webhooks = express.Router();
    webhooks.use(ok);
    const guarded = express.Router();
    guarded.use(unauthorized);
    guarded.get("/status", ok);
    const items = express.Router({ mergeParams: true });
    items.get("/", ok);
    const api = express.Router();
    api.use("/households/:hid/items", unauthorized, items);
    app.use("/webhook", webhooks);
    app.use("/debug", guarded);
    app.use("/api/v1", api);
    app.use(outerErrors);

    await request(app).post("/webhook/doorbell/ring");
    await request(app).get("/debug/status");
    await request(app).get("/api/v1/households/h1/items");
    expect(seen).to.deep.equal(["/webhook/*", "/debug/*", "/api/v1/households/:hid/items/*"]);
  });

  it("reports requests that reach no router as unmatched", async () => {
    const { app, seen } = appWithTemplates();
    app.get("/healthz", ok);
    await request(app).get("/no/such/page");
    await request(app).get("/healthz");
    expect(seen).to.deep.equal([UNMATCHED_ROUTE, "/healthz"]);
  });

  it("names routes of a mounted sub-app and its root", async () => {
    const { app, seen } = appWithTemplates();
    const ui = express();
    ui.get("/", ok);
    ui.get("/assets/:name", ok);
    app.use("/status", ui);
    await request(app).get("/status");
    await request(app).get("/status/assets/status.js");
    expect(seen).to.deep.equal(["/status", "/status/assets/:name"]);
  });

  it("handles encoded and wildcard parameters in mounts", async () => {
    const { app, seen } = appWithTemplates();
    const zone = express.Router({ mergeParams: true });
    zone.get("/devices/*names", ok);
    app.use("/zones/:zone", zone);
    const files = express.Router();
    files.use(ok);
    app.use("/files/*path", files);
    const api = express.Router();
    api.get("/state/:key", ok);
    app.use("/api", api);

    await request(app).get("/zones/garden%20shed/devices/a/b");
    await request(app).get("/files/a%20b/c");
    await request(app).get("/api/state/away%2Fmode");
    expect(seen).to.deep.equal(["/zones/:zone/devices/*names", "/files/*path/*", "/api/state/:key"]);
  });

  it("names a mount whose parameter value equals one of its literal segments", async () => {
    const { app, seen } = appWithTemplates();
    const items = express.Router({ mergeParams: true });
    items.get("/:iid", ok);
    app.use("/households/:hid/items", items);
    await request(app).get("/households/items/items/items");
    expect(seen).to.deep.equal(["/households/:hid/items/:iid"]);
  });
});
