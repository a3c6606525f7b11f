import { expect } from "chai";
import { Automation, type RunMode, type Trigger, type TriggerContext, WebhookRefusedError } from "hearth";
import { createTestEngine, type TestEngine } from "hearth/testing";
import { webhookRefusalOf } from "../../../src/domain/automation/webhook-refusal.js";

const webhook = (body: unknown) =>
  ({ type: "webhook", path: "away", method: "POST", headers: {}, query: {}, body }) as const;

/** Refuses a body without a boolean `away`, synchronously or after an await as the body asks. */
class StrictWebhook extends Automation {
  readonly name = "strict";
  readonly triggers: Trigger[] = [
    { type: "webhook", path: "away" },
    { type: "mqtt", topic: "test/away" },
  ];

  async execute(context: TriggerContext): Promise<void> {
    const body = context.type === "webhook" ? context.body : context.type === "mqtt" ? context.payload : undefined;
    const { away, late } = (body ?? {}) as { away?: unknown; late?: boolean };
    if (late) await new Promise((resolve) => setImmediate(resolve));
    if (typeof away !== "boolean")
      throw new WebhookRefusedError(400, "Send away as true or false", {
        details: [{ path: "away", message: "expected a boolean" }],
      });
    this.state.set("away", away);
  }
}

describe("WebhookRefusedError", () => {
  describe("construction", () => {
    for (const status of [399, 500, 200, 400.5, Number.NaN, "400"]) {
      it(`refuses status ${typeof status === "string" ? JSON.stringify(status) : String(status)} with a TypeError`, () => {
        expect(() => new WebhookRefusedError(status as number, "No")).to.throw(TypeError, /400 to 499/);
      });
    }

    it("refuses details that are not { path, message } entries", () => {
      const details = [{ path: "away" }] as unknown as { path: string; message: string }[];
      expect(() => new WebhookRefusedError(400, "No", { details })).to.throw(TypeError, /details/);
    });

    it("keeps its status, message, details and code", () => {
      const error = new WebhookRefusedError(422, "No", { details: [{ path: "a", message: "b" }] });
      expect(error).to.be.instanceOf(Error);
      expect(error).to.include({ status: 422, message: "No", code: "WEBHOOK_REFUSED", name: "WebhookRefusedError" });
      expect(webhookRefusalOf(error)).to.deep.equal({
        status: 422,
        message: "No",
        details: [{ path: "a", message: "b" }],
      });
    });

    it("is recognised when thrown by another copy of the package (by its brand)", () => {
      const foreign = Object.assign(new Error("No"), { status: 409, [Symbol.for("hearth.webhookRefused")]: true });
      expect(webhookRefusalOf(foreign)).to.deep.equal({ status: 409, message: "No" });
      expect(webhookRefusalOf(new Error("No"))).to.equal(null);
      expect(webhookRefusalOf(Object.assign(new Error("No"), { status: 409 }))).to.equal(null);
    });
  });

  describe("thrown from a run", () => {
    let t: TestEngine;
    beforeEach(async () => {
      t = await createTestEngine({ automations: [StrictWebhook] });
    });
    afterEach(() => t.stop());

    for (const late of [false, true]) {
      it(`refuses a webhook's request ${late ? "after an await" : "synchronously"}: not an error of the automation`, async () => {
        const result = await t.trigger("strict", webhook({ away: "yes", late }));
        expect(result).to.deep.equal({
          status: "refused",
          refusal: {
            status: 400,
            message: "Send away as true or false",
            details: [{ path: "away", message: "expected a boolean" }],
          },
        });
        expect(t.info("strict").stats).to.include({ runs: 1, errors: 0, refused: 1, lastError: null });
        const [trace] = t.traces("strict").traces;
        expect(trace).to.deep.include({
          status: "refused",
          refusal: result.status === "refused" ? result.refusal : null,
        });
        expect(trace?.error).to.equal(undefined);
        const logged = t.logs.find((entry) => entry.msg === "Webhook request refused");
        expect(logged?.level).to.equal("info");
        expect(logged?.fields).to.include({ automation: "strict", status: 400, reason: "Send away as true or false" });
        expect(t.logs.some((entry) => entry.level === "error")).to.equal(false);
      });
    }

    it("fails a run of any other trigger as an ordinary error", async () => {
      await t.publish("test/away", { away: "yes" });
      expect(t.info("strict").stats).to.include({ errors: 1, refused: 0, lastError: "Send away as true or false" });
      expect(t.traces("strict").traces[0]?.status).to.equal("error");
    });

    it("answers a test webhook call with the refusal's status", async () => {
      const refused = await t.webhook("away", { body: { away: 1 } });
      expect(refused.status).to.equal(400);
      expect(refused.results[0]?.result.status).to.equal("refused");
      expect((await t.webhook("away", { body: { away: true } })).status).to.equal(200);
      expect(t.state.get("away")).to.equal(true);
    });

    it("answers a test webhook call whose body holds Infinity with 400 and runs nothing, as the engine does", async () => {
      const refused = await t.webhook("away", { body: { away: true, since: Number.POSITIVE_INFINITY } });
      expect(refused).to.deep.equal({ status: 400, results: [] });
      expect(t.info("strict").stats.runs).to.equal(0);
    });
  });

  describe("run modes", () => {
    /** Its runs wait for the test's gate, then refuse the request. */
    function gatedRefusal(mode: RunMode) {
      const gates: (() => void)[] = [];
      let started = 0;
      class Gated extends Automation {
        readonly name = "gated";
        override readonly mode = mode;
        readonly triggers: Trigger[] = [{ type: "webhook", path: "away" }];
        async execute(): Promise<void> {
          started++;
          await new Promise<void>((resolve) => gates.push(resolve));
          throw new WebhookRefusedError(409, "Not now");
        }
      }
      // Waits for the run to reach its gate: a queued run starts a few promise turns after the one before ends.
      const release = async () => {
        while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
        gates.shift()?.();
      };
      return { Gated, release, started: () => started };
    }

    it("restart: the run aborted by a newer firing is dropped, whatever it throws; the newer one refuses", async () => {
      const { Gated, release, started } = gatedRefusal("restart");
      const t = await createTestEngine({ automations: [Gated] });
      try {
        const first = t.manager.runAutomation("gated", webhook({}));
        const second = t.manager.runAutomation("gated", webhook({}));
        expect(started()).to.equal(2);
        await release();
        await release();
        expect((await first).status).to.equal("dropped");
        expect(await second).to.deep.equal({ status: "refused", refusal: { status: 409, message: "Not now" } });
        expect(t.info("gated").stats).to.include({ errors: 0, refused: 1 });
      } finally {
        await t.stop();
      }
    });

    it("single: the test kit answers a firing the mode dropped 409, as the engine's router does", async () => {
      let open = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      class Busy extends Automation {
        readonly name = "busy";
        override readonly mode = "single";
        readonly triggers: Trigger[] = [{ type: "webhook", path: "away" }];
        async execute(): Promise<void> {
          await gate;
        }
      }
      const t = await createTestEngine({ automations: [Busy] });
      try {
        const first = t.webhook("away");
        // Fired while the first run waits; the call itself settles once every run has.
        const second = t.webhook("away");
        open();
        const dropped = await second;
        expect(dropped.status).to.equal(409);
        expect(dropped.results[0]?.result.status).to.equal("dropped");
        expect((await first).status).to.equal(200);
      } finally {
        await t.stop();
      }
    });

    it("queued: a firing that waited answers its own run's refusal", async () => {
      const { Gated, release, started } = gatedRefusal("queued");
      const t = await createTestEngine({ automations: [Gated] });
      try {
        const first = t.manager.runAutomation("gated", webhook({}));
        const second = t.manager.runAutomation("gated", webhook({}));
        expect(started()).to.equal(1);
        await release();
        expect((await first).status).to.equal("refused");
        await release();
        expect(started()).to.equal(2);
        expect((await second).status).to.equal("refused");
        expect(t.info("gated").stats).to.include({ runs: 2, errors: 0, refused: 2 });
      } finally {
        await t.stop();
      }
    });
  });
});
