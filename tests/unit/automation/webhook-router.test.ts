import { expect } from "chai";
import express from "express";
import request from "supertest";
import { createWebhookRouter } from "../../../src/adapters/http/engine/webhook-router.js";
import { MemoryLogger } from "../../../src/adapters/logging/memory-logger.js";
import type { WebhookTriggerContext } from "../../../src/domain/automation/trigger.js";
import { WebhookRefusedError } from "../../../src/domain/automation/webhook-refusal.js";
import { automationInfo, FakeAutomationManager } from "../../support/fake-automation-manager.js";

describe("webhook router", () => {
  let manager: FakeAutomationManager;
  let app: express.Express;
  let received: WebhookTriggerContext[];
  let logger: MemoryLogger;

  beforeEach(() => {
    received = [];
    const record = (context: unknown) => {
      received.push(context as WebhookTriggerContext);
    };
    manager = new FakeAutomationManager()
      .add(automationInfo("doorbell", { triggers: [{ type: "webhook", path: "doorbell" }] }), record)
      .add(
        automationInfo("garage", { triggers: [{ type: "webhook", path: "garage/open", methods: ["GET", "PUT"] }] }),
        record,
      )
      .add(
        automationInfo("garage-log", { triggers: [{ type: "webhook", path: "garage/open", methods: ["GET"] }] }),
        record,
      )
      .add(automationInfo("broken", { triggers: [{ type: "webhook", path: "broken" }] }), () => {
        throw new Error("relay offline");
      });
    logger = new MemoryLogger();
    app = express();
    app.use("/webhook", createWebhookRouter({ manager, logger }));
  });

  it("runs the automation with a JSON body, string-map headers and query, and answers once it finished", async () => {
    let finished = false;
    manager.add(automationInfo("slow", { triggers: [{ type: "webhook", path: "slow" }] }), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      finished = true;
    });
    await request(app)
      .post("/webhook/slow?room=hall&room=porch&x=1")
      .set("X-Token", "abc")
      .send({ pressed: true })
      .expect(200, { status: "ok" });
    expect(finished).to.equal(true);
    const context = manager.runs[0]!.context as WebhookTriggerContext;
    expect(context).to.deep.include({ type: "webhook", path: "slow", method: "POST", body: { pressed: true } });
    expect(context.headers["x-token"]).to.equal("abc");
    expect(context.query).to.deep.equal({ room: "hall, porch", x: "1" });
  });

  it("parses form and text bodies by content type", async () => {
    await request(app).post("/webhook/doorbell").type("form").send("who=postman&count=2").expect(200);
    await request(app).post("/webhook/doorbell").type("text/plain").send("ding dong").expect(200);
    expect(received[0]!.body).to.deep.equal({ who: "postman", count: "2" });
    expect(received[1]!.body).to.equal("ding dong");
  });

  it("dispatches to every automation whose path and method match", async () => {
    await request(app).get("/webhook/garage/open").expect(200, { status: "ok" });
    expect(manager.runs.map((run) => run.name).sort()).to.deep.equal(["garage", "garage-log"]);
    expect(received[0]!.body).to.equal(undefined);
    manager.runs.length = 0;
    await request(app).put("/webhook/garage/open").send({}).expect(200);
    expect(manager.runs.map((run) => run.name)).to.deep.equal(["garage"]);
  });

  it("answers 404 for an unknown path", async () => {
    const response = await request(app).post("/webhook/nothing-here").expect(404);
    expect(response.body.error).to.equal("Not Found");
    await request(app).post("/webhook").expect(404);
    await request(app).post("/webhook/").expect(404);
  });

  it("answers 405 with an Allow header for a known path and a wrong method", async () => {
    const response = await request(app).delete("/webhook/garage/open").expect(405);
    expect(response.headers.allow).to.equal("GET, PUT");
    await request(app).get("/webhook/doorbell").expect(405).expect("Allow", "POST");
    expect(manager.runs).to.have.length(0);
  });

  it("answers a generic 500 with an error id when execute throws; the message goes to the log", async () => {
    const response = await request(app).post("/webhook/broken").send({}).expect(500);
    expect(JSON.stringify(response.body)).not.to.include("relay offline");
    expect(response.body).to.include({ error: "Internal Server Error" });
    expect(response.body.errorId).to.be.a("string").with.length.above(8);
    const logged = logger.at("error").find((entry) => entry.fields.errorId === response.body.errorId);
    expect(JSON.stringify(logged?.fields)).to.include("relay offline");
  });

  describe("refusals (WebhookRefusedError)", () => {
    const refuse = (status: number, message: string) => async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new WebhookRefusedError(status, message, { details: [{ path: "away", message: "must be a boolean" }] });
    };

    it("answers the automation's status with the error body, and logs no failure", async () => {
      manager.add(automationInfo("strict", { triggers: [{ type: "webhook", path: "strict" }] }), refuse(422, "No"));
      const response = await request(app).post("/webhook/strict").send({ away: "yes" }).expect(422);
      expect(response.body).to.deep.equal({
        error: "Unprocessable Entity",
        message: "No",
        details: [{ path: "away", message: "must be a boolean" }],
      });
      expect(logger.at("error")).to.have.length(0);
    });

    it("answers 500 when another automation on the path failed: a refusal does not hide a failure", async () => {
      manager
        .add(automationInfo("strict", { triggers: [{ type: "webhook", path: "broken" }] }), refuse(400, "No"))
        .add(automationInfo("broken", { triggers: [{ type: "webhook", path: "broken" }] }), () => {
          throw new Error("relay offline");
        });
      const response = await request(app).post("/webhook/broken").send({}).expect(500);
      expect(response.body.errorId).to.be.a("string");
    });

    it("answers the first refusing automation's status when several refuse", async () => {
      manager
        .add(automationInfo("first", { triggers: [{ type: "webhook", path: "both" }] }), refuse(403, "Not you"))
        .add(automationInfo("second", { triggers: [{ type: "webhook", path: "both" }] }), refuse(400, "Bad body"));
      const response = await request(app).post("/webhook/both").send({}).expect(403);
      expect(response.body).to.include({ error: "Forbidden", message: "Not you" });
    });
  });

  describe("secrets", () => {
    const tokenSecret = { type: "token", token: "s3cret-token-value" } as const;
    const hmacSecret = { type: "hmac", secret: "hmac-shared-secret" } as const;

    beforeEach(() => {
      manager
        .add(
          automationInfo("shortcut", {
            triggers: [{ type: "webhook", path: "phone/arrived", webhookSecret: tokenSecret }],
          }),
          (context) => {
            received.push(context as WebhookTriggerContext);
          },
        )
        .add(
          automationInfo("signed", {
            triggers: [{ type: "webhook", path: "signed", webhookSecret: { ...hmacSecret, header: "X-Signature" } }],
          }),
          (context) => {
            received.push(context as WebhookTriggerContext);
          },
        );
    });

    it("answers 401 without running when the token is missing or wrong", async () => {
      await request(app).post("/webhook/phone/arrived").send({}).expect(401);
      await request(app)
        .post("/webhook/phone/arrived")
        .set("X-Webhook-Token", "s3cret-token-valuX")
        .send({})
        .expect(401);
      await request(app).post("/webhook/phone/arrived").set("X-Webhook-Token", "short").send({}).expect(401);
      expect(manager.runs).to.have.length(0);
    });

    it("runs with the token in its header or as a bearer token", async () => {
      await request(app)
        .post("/webhook/phone/arrived")
        .set("X-Webhook-Token", "s3cret-token-value")
        .send({})
        .expect(200);
      await request(app)
        .post("/webhook/phone/arrived")
        .set("Authorization", "Bearer s3cret-token-value")
        .send({})
        .expect(200);
      expect(manager.runs.map((run) => run.name)).to.deep.equal(["shortcut", "shortcut"]);
    });

    it("checks an HMAC-SHA256 signature of the raw body, with or without the sha256= prefix", async () => {
      const { createHmac } = await import("node:crypto");
      const body = '{"event":"push", "spacing" : 1}';
      const signature = createHmac("sha256", "hmac-shared-secret").update(body).digest("hex");
      const send = (value: string, payload = body) =>
        request(app)
          .post("/webhook/signed")
          .set("Content-Type", "application/json")
          .set("X-Signature", value)
          .send(payload);
      await send(signature).expect(200);
      await send(`sha256=${signature}`).expect(200);
      await send(signature, '{"event":"push","spacing":1}').expect(401);
      await send("sha256=00").expect(401);
      await request(app).post("/webhook/signed").set("Content-Type", "application/json").send(body).expect(401);
      expect(manager.runs.map((run) => run.name)).to.deep.equal(["signed", "signed"]);
    });
  });

  it("answers 400 for malformed JSON without running anything", async () => {
    const response = await request(app)
      .post("/webhook/doorbell")
      .set("Content-Type", "application/json")
      .send('{"pressed":')
      .expect(400);
    expect(response.body.error).to.equal("Bad Request");
    expect(manager.runs).to.have.length(0);
  });

  it("answers 400 TRIGGER_INPUT_NOT_FINITE for a number JSON cannot hold (1e400 parses as Infinity), naming where, without running anything", async () => {
    for (const [body, path, number] of [
      ["1e400", "", "Infinity"],
      ['{"reading":-1e400}', "reading", "-Infinity"],
      ['{"rooms":[{"temp":21},{"temp":1e999}]}', "rooms.1.temp", "Infinity"],
    ] as const) {
      const response = await request(app)
        .post("/webhook/doorbell")
        .set("Content-Type", "application/json")
        .send(body)
        .expect(400);
      const where = path === "" ? "The request body is" : `The request body's ${path} is`;
      expect(response.body, body).to.deep.equal({
        error: "Bad Request",
        message: `${where} ${number}, a number out of JSON's range (1e400 parses as Infinity); send a finite number or a string. Nothing ran`,
        details: [{ path, message: `is ${number} (a number out of range); JSON cannot hold it` }],
      });
    }
    expect(manager.runs).to.have.length(0);
    expect(logger.at("error")).to.deep.equal([]);
  });

  it("answers 401, not 400, to a caller without the secret whose body holds 1e400", async () => {
    manager.add(
      automationInfo("shortcut", {
        triggers: [{ type: "webhook", path: "phone/arrived", webhookSecret: { type: "token", token: "s3cret-token" } }],
      }),
      () => undefined,
    );
    const send = () => request(app).post("/webhook/phone/arrived").set("Content-Type", "application/json");
    await send().send('{"battery":1e400}').expect(401);
    await send().set("X-Webhook-Token", "s3cret-token").send('{"battery":1e400}').expect(400);
    expect(manager.runs).to.have.length(0);
  });

  it("answers 400 for JSON nested deeper than 32 levels without running anything", async () => {
    const response = await request(app)
      .post("/webhook/doorbell")
      .set("Content-Type", "application/json")
      .send(`{"pressed":${"[".repeat(5000)}${"]".repeat(5000)}}`)
      .expect(400);
    expect(response.body.details?.[0]).to.deep.include({ message: "is nested deeper than 32 levels" });
    expect(manager.runs).to.have.length(0);
    expect(logger.at("error")).to.deep.equal([]);
  });

  it("answers 400 for a body that does not decompress as its Content-Encoding says, without running anything", async () => {
    for (const type of ["application/json", "text/plain", "application/x-www-form-urlencoded"]) {
      const response = await request(app)
        .post("/webhook/doorbell")
        .set("Content-Type", type)
        .set("Content-Encoding", "gzip")
        .send("pressed=1")
        .expect(400);
      expect(response.body.message, type).to.match(/^Request body cannot be decompressed/);
    }
    expect(manager.runs).to.have.length(0);
    expect(logger.at("error")).to.deep.equal([]);
  });

  it("answers 413 for bodies over 1 MB", async () => {
    const big = "x".repeat(1024 * 1024 + 10);
    await request(app).post("/webhook/doorbell").type("text/plain").send(big).expect(413);
    await request(app).post("/webhook/doorbell").send({ big }).expect(413);
    expect(manager.runs).to.have.length(0);
  });
});
