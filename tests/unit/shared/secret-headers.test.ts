import { expect } from "chai";
import {
  isSecretHeader,
  REDACTED,
  redactHeaders,
  redactSecretHeaders,
} from "../../../src/domain/shared/secret-headers.js";

describe("secret headers (the one redaction rule for traces, logs and the web UI)", () => {
  it("knows the headers that carry credentials, in any case", () => {
    for (const name of [
      "Authorization",
      "proxy-authorization",
      "Cookie",
      "set-cookie",
      "X-Webhook-Token",
      "x-api-key",
      "X-Hub-Signature-256",
      "x-my-secret",
      "X-Admin-Password",
      "x-session-id",
      "sec-websocket-key",
    ])
      expect(isSecretHeader(name), name).to.equal(true);
    for (const name of ["content-type", "user-agent", "x-forwarded-for", "accept", "keep-alive", "x-request-id"])
      expect(isSecretHeader(name), name).to.equal(false);
  });

  it("hides their values and keeps the rest", () => {
    expect(redactHeaders({ authorization: "Bearer abc", "content-type": "text/plain" })).to.deep.equal({
      authorization: REDACTED,
      "content-type": "text/plain",
    });
  });

  it("finds headers at any depth without touching the input, and copies nothing when nothing is secret", () => {
    const context = { type: "webhook", headers: { "x-webhook-token": "t0k3n", host: "hearth" }, body: { a: 1 } };
    const logged = { request: context, list: [{ headers: { Cookie: "id=1" } }] };
    const redacted = redactSecretHeaders(logged);
    expect(redacted.request.headers).to.deep.equal({ "x-webhook-token": REDACTED, host: "hearth" });
    expect(redacted.list[0]?.headers).to.deep.equal({ Cookie: REDACTED });
    expect(context.headers["x-webhook-token"]).to.equal("t0k3n");
    const plain = { type: "mqtt", payload: { key: "state key stays" }, headers: { host: "x" } };
    expect(redactSecretHeaders(plain)).to.equal(plain);
  });
});
