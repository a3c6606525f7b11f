import { expect } from "chai";
import { createTestEngine, type TestEngine } from "hearth/testing";
import AwayLightsOff from "../../../automations/away-lights-off.js";
import AwayModeWebhook from "../../../automations/away-mode-webhook.js";

describe("away-mode-webhook and away-lights-off (bundled automations)", () => {
  let t: TestEngine;

  beforeEach(async () => {
    t = await createTestEngine({ automations: [AwayModeWebhook, AwayLightsOff] });
  });

  afterEach(() => t.stop());

  it("sets away from the webhook, and away switches every light off", async () => {
    const response = await t.webhook("away-mode", { method: "POST", body: { away: true } });
    expect(response.status).to.equal(200);
    expect(t.state.get("away")).to.equal(true);
    for (const light of ["hallway_light", "living_room_lamp", "kitchen_ceiling"]) {
      t.expectPublished(`zigbee2mqtt/${light}/set`, { state: "OFF" });
    }
  });

  it("does nothing when away becomes false", async () => {
    await t.webhook("away-mode", { method: "PUT", body: { away: false } });
    expect(t.state.get("away")).to.equal(false);
    t.expectNothingPublished();
    expect(t.traces("away-lights-off").rejected[0]).to.include({ count: 1 });
  });

  it("refuses a body without a boolean `away` with a 400 and changes nothing", async () => {
    const response = await t.webhook("away-mode", { body: { away: "yes" } });
    expect(response.status).to.equal(400);
    expect(response.results[0]?.result).to.deep.equal({
      status: "refused",
      refusal: {
        status: 400,
        message: 'Expected a JSON body like {"away": true}',
        details: [{ path: "away", message: "must be true or false" }],
      },
    });
    expect(t.state.has("away")).to.equal(false);
    expect(t.traces("away-mode-webhook").traces[0]?.status).to.equal("refused");
    expect(t.info("away-mode-webhook").stats).to.include({ errors: 0, refused: 1 });
  });

  it("only accepts POST and PUT", async () => {
    expect((await t.webhook("away-mode", { method: "GET" })).status).to.equal(405);
    expect((await t.webhook("nowhere")).status).to.equal(404);
  });
});
