import { expect } from "chai";
import { unreadResponse } from "../../../support/unread-response.js";
import {
  HOUSEHOLD_STREAM_MAX_BUFFERED_BYTES,
  householdEventsHandler,
} from "../../../../src/adapters/http/inventory/household-events-route.js";
import type { HouseholdAccess } from "../../../../src/application/inventory/household-access.js";
import type {
  HouseholdEventSink,
  HouseholdEventStreams,
} from "../../../../src/application/inventory/household-event-streams.js";

describe("household event stream route", () => {
  it("drops a client that does not read instead of keeping every event for it", async () => {
    let sink: HouseholdEventSink | undefined;
    let closed = false;
    const streams = {
      open: async (options: { sink: HouseholdEventSink }) => {
        sink = options.sink;
        return {
          close: () => {
            closed = true;
          },
        };
      },
    } as unknown as HouseholdEventStreams;
    const access = { requireMember: async () => undefined } as unknown as HouseholdAccess;
    const { res, written, state } = unreadResponse({ userId: "user0000000000000000001" });
    const req = { method: "GET", headers: {}, params: { hid: "household000000000000001" } };
    await (
      householdEventsHandler(streams, access) as unknown as (q: unknown, s: unknown, n: () => void) => Promise<void>
    )(req, res, () => undefined);
    const event = {
      id: "event",
      type: "item.updated",
      householdId: "household000000000000001",
      occurredAt: new Date(0).toISOString(),
      actor: null,
      data: { notes: "x".repeat(2000) },
    };
    for (let n = 0; n < 2000 && !state.destroyed; n++)
      sink?.event(String(n), event as unknown as Parameters<HouseholdEventSink["event"]>[1]);
    expect(state.destroyed, "the client that does not read is dropped").to.equal(true);
    expect(closed, "its stream is closed").to.equal(true);
    expect(written.join("").length).to.be.below(HOUSEHOLD_STREAM_MAX_BUFFERED_BYTES + 4096);
    sink?.ping();
    expect(written.join("").length, "nothing more is written").to.be.below(HOUSEHOLD_STREAM_MAX_BUFFERED_BYTES + 4096);
  });
});
