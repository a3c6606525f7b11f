import { expect } from "chai";
import { departFrom, membershipLost } from "../../../web/src/data.js";
import { getState, setState } from "../../../web/src/store.js";

describe("web app: the notice when a membership ends", () => {
  const realFetch = globalThis.fetch;
  let households: { id: string; name: string }[] = [];
  // The few browser globals the app's data layer reads, as a page at "/" has them.
  const browser = globalThis as unknown as Record<string, unknown>;
  before(() => {
    const stored = new Map<string, string>();
    browser.location = { search: "", pathname: "/", hash: "", origin: "http://localhost" };
    // Node 20 has no navigator; later lines have one without onLine, which reads as online.
    if (browser.navigator === undefined) browser.navigator = { onLine: true };
    browser.history = { state: null, replaceState: () => undefined, pushState: () => undefined };
    browser.localStorage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    };
  });
  after(() => {
    delete browser.location;
    delete browser.history;
    if ((browser.navigator as { onLine?: boolean } | undefined)?.onLine === true) delete browser.navigator;
    delete browser.localStorage;
  });
  beforeEach(() => {
    globalThis.fetch = (async () =>
      new Response(JSON.stringify(households), {
        status: 200,
        headers: { "content-type": "application/json" },
      })) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it("says the user was removed when the membership ends by someone else's hand", async () => {
    households = [];
    setState({ households: [{ id: "h1", name: "The Smiths" }] as never, householdId: "h1", notice: null });
    await membershipLost("h1");
    expect(getState().notice).to.match(/The Smiths/);
    expect(getState().notice).not.to.equal(null);
  });

  it("keeps the app's own notice when the user deleted or left the household, even as the end arrives after", async () => {
    households = [];
    setState({ households: [{ id: "h2", name: "The Joneses" }] as never, householdId: "h2", notice: null });
    await departFrom("h2", async () => {
      // The event stream's membership.ended arrives while the delete is still answering ...
      await membershipLost("h2");
    });
    setState({ notice: "The Joneses was deleted." });
    // ... or after it.
    await membershipLost("h2");
    expect(getState().notice).to.equal("The Joneses was deleted.");
  });

  it("forgets a failed delete: a later end of the membership is news again", async () => {
    households = [];
    setState({ households: [{ id: "h3", name: "The Millers" }] as never, householdId: "h3", notice: null });
    try {
      await departFrom("h3", async () => {
        throw new Error("offline");
      });
    } catch {
      // The delete failed; the household is still the user's.
    }
    await membershipLost("h3");
    expect(getState().notice).to.match(/The Millers/);
  });
});
