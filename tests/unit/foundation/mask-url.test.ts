import { expect } from "chai";
import { maskSecrets } from "../../../src/adapters/logging/mask-url.js";

describe("maskSecrets", () => {
  it("masks every secret query parameter and keeps the others", () => {
    const url =
      "https://api.example/weather?q=Oslo&appid=abc123&units=metric&apikey=k&api_key=z&token=t&key=1&secret=s";
    expect(maskSecrets(url)).to.equal(
      "https://api.example/weather?q=Oslo&appid=***&units=metric&apikey=***&api_key=***&token=***&key=***&secret=***",
    );
  });

  it("matches names case-insensitively and keeps the name as written", () => {
    expect(maskSecrets("GET http://x/?APPID=1&Token=2")).to.equal("GET http://x/?APPID=***&Token=***");
  });

  it("masks URLs inside longer messages and leaves similar names alone", () => {
    expect(maskSecrets('failed "http://h/p?monkey=1&key=2#frag" after 3 tries')).to.equal(
      'failed "http://h/p?monkey=1&key=***#frag" after 3 tries',
    );
  });

  it("masks empty values too and leaves text without URLs unchanged", () => {
    expect(maskSecrets("http://h/?token=")).to.equal("http://h/?token=***");
    expect(maskSecrets("no url here, token=abc")).to.equal("no url here, token=abc");
  });

  it("masks a token carried in the path, as Nanoleaf's OpenAPI does, and leaves /api/v1/new", () => {
    expect(maskSecrets("PUT http://10.0.0.40:16021/api/v1/AbCdEf0123456789XyZ0123456789abcd/state")).to.equal(
      "PUT http://10.0.0.40:16021/api/v1/***/state",
    );
    expect(maskSecrets("http://p:16021/api/v1/AbCdEf0123456789XyZ0123456789abcd")).to.equal(
      "http://p:16021/api/v1/***",
    );
    expect(maskSecrets("POST http://p:16021/api/v1/new")).to.equal("POST http://p:16021/api/v1/new");
  });
});
