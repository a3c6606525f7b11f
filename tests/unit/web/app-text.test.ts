import { expect } from "chai";
import { ApiError } from "../../../web/src/api.js";
import { describeError } from "../../../web/src/errors.js";
import { daysUntil, dateInputValue, formatRelative } from "../../../web/src/format.js";
import { de } from "../../../web/src/i18n/de.js";
import { en } from "../../../web/src/i18n/en.js";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe("web app: messages and formats", () => {
  it("the German catalogue has every English key, none empty, with the same placeholders", () => {
    expect(Object.keys(de).sort()).to.deep.equal(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const german = de[key as keyof typeof en];
      expect(german.trim(), key).to.not.equal("");
      // The English fallback for a 400 quotes the server's (English) sentence; other languages
      // say it in their own words instead of mixing English into the page (issue 22, point 5).
      const english = placeholders(text).filter((name) => !(key === "error.400" && name === "message"));
      expect(placeholders(german), key).to.deep.equal(english);
    }
  });

  it("turns every API failure into a sentence; a 429 says when to retry", () => {
    // Outside a browser the catalogue is English.
    expect(describeError(new ApiError(429, "Too many requests", [], 30))).to.equal(
      "Too many requests. Try again in 30 seconds.",
    );
    expect(describeError(new ApiError(429, "Too many requests"))).to.equal(
      "Too many requests. Wait a minute, then try again.",
    );
    expect(describeError(new ApiError(0, "offline"))).to.match(/server cannot be reached/);
    expect(
      describeError(new ApiError(400, "Request body invalid", [{ path: "name", message: "must not be empty" }])),
    ).to.equal("Please check: Name: must not be empty.");
    expect(describeError(new ApiError(409, "Conflict"), { 409: "freezers.freezerNotEmpty" })).to.equal(
      en["freezers.freezerNotEmpty"],
    );
    expect(describeError(new ApiError(503, "down"))).to.equal(en["error.unavailable"]);
    expect(describeError(new ApiError(418, "teapot"))).to.equal(en["error.unexpected"]);
    expect(describeError(new Error("boom"))).to.equal(en["error.unexpected"]);
  });

  it("counts days to a best-before date in calendar days and keeps dates as dates", () => {
    const now = Date.parse("2026-11-24T22:30:00Z");
    expect(daysUntil("2026-11-24T00:00:00.000Z", now)).to.equal(0);
    expect(daysUntil("2026-11-27T00:00:00.000Z", now)).to.equal(3);
    expect(daysUntil("2026-11-23T00:00:00.000Z", now)).to.equal(-1);
    expect(dateInputValue("2026-12-24T00:00:00.000Z")).to.equal("2026-12-24");
    expect(dateInputValue(null)).to.equal("");
  });

  it("says how long ago something happened", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    expect(formatRelative("2026-11-22T12:00:00Z", now)).to.equal("2 days ago");
    expect(formatRelative("2026-11-24T12:00:00Z", now)).to.equal("now");
  });
});
