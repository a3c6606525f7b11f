/**
 * What the HTTP listener answers a request Node cannot parse: the JSON error body of every other
 * answer, with Node's status for it, instead of a bare status line.
 */
import { connect } from "node:net";
import { expect } from "chai";
import { type HttpListener, listen } from "../../../src/adapters/http/http-listener.js";

describe("the HTTP listener, for requests Node cannot parse", () => {
  let listener: HttpListener;

  beforeEach(async () => {
    listener = await listen(
      (_req, res) => {
        res.setHeader("Content-Type", "application/json");
        res.end('{"ok":true}');
      },
      0,
      "127.0.0.1",
    );
  });
  afterEach(async () => {
    await listener.close(0);
  });

  /** Sends `request` as raw bytes and resolves to everything the server wrote back. */
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(listener.port, "127.0.0.1", () => socket.write(request));
      let answer = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        answer += chunk;
      });
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
    });

  it("answers headers over Node's limit (a long URL) with 431 and a JSON body", async () => {
    const response = await fetch(`http://127.0.0.1:${listener.port}/api/v1/households?q=${"x".repeat(20_000)}`);
    expect(response.status).to.equal(431);
    expect(response.headers.get("content-type")).to.match(/^application\/json/);
    expect(await response.json()).to.deep.equal({
      statusCode: 431,
      error: "Request Header Fields Too Large",
      message: "The request's headers (the URL included) are too large",
    });
  });

  it("answers bytes that are not HTTP with 400 and a JSON body, and closes the connection", async () => {
    const answer = await raw("HELLO THERE\r\n\r\n");
    expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).to.include("Connection: close");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).to.deep.equal({
      statusCode: 400,
      error: "Bad Request",
      message: "The request could not be parsed as HTTP",
    });
  });

  it("still answers a well-formed request on the same listener", async () => {
    const response = await fetch(`http://127.0.0.1:${listener.port}/`);
    expect(await response.json()).to.deep.equal({ ok: true });
  });
});
