import jwt from "jsonwebtoken";
import { expect } from "chai";
import { CryptoSecretGenerator } from "../../../../src/adapters/security/crypto-secret-generator.js";
import { JwtTokenService } from "../../../../src/adapters/security/jwt-token-service.js";
import { ScryptPasswordHasher } from "../../../../src/adapters/security/scrypt-password-hasher.js";

describe("scrypt password hasher", () => {
  const hasher = new ScryptPasswordHasher({ cost: 1024, blockSize: 8, parallelization: 1 });

  it("verifies the right password only, with a fresh salt per hash", async () => {
    const first = await hasher.hash("correct horse");
    const second = await hasher.hash("correct horse");
    expect(first).to.match(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(first).to.not.equal(second);
    expect(await hasher.verify("correct horse", first)).to.equal(true);
    expect(await hasher.verify("correct horsE", first)).to.equal(false);
  });

  it("reads the parameters from the hash, so stronger settings still verify old hashes", async () => {
    const old = await hasher.hash("pw-123456");
    expect(await new ScryptPasswordHasher().verify("pw-123456", old)).to.equal(true);
  });

  it("answers false, never throws, for hashes it cannot read", async () => {
    for (const garbage of [
      "",
      "!deleted:xyz",
      "scrypt$0$8$1$aa$bb",
      "bcrypt$2$x",
      "scrypt$1024$8$1$c2FsdA$c2hvcnQ",
      `scrypt$1000$8$1$c2FsdA$${"A".repeat(86)}`,
    ]) {
      expect(await hasher.verify("pw", garbage), garbage).to.equal(false);
    }
  });
});

describe("secret generator", () => {
  it("makes URL-safe secrets of 256 bits and stable digests", () => {
    const secrets = new CryptoSecretGenerator();
    const secret = secrets.generate();
    expect(secret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.generate()).to.not.equal(secret);
    expect(secrets.digest(secret)).to.equal(secrets.digest(secret)).and.to.not.equal(secret);
  });
});

describe("JWT token service", () => {
  it("round-trips the user id and refuses other secrets and garbage", () => {
    const tokens = new JwtTokenService("a-secret-of-at-least-32-characters!!", 60);
    const issued = tokens.issueAccessToken("user1abcdefgh");
    expect(issued.expiresIn).to.equal(60);
    expect(tokens.verifyAccessToken(issued.token)).to.equal("user1abcdefgh");
    expect(new JwtTokenService("another-secret-of-32-characters!!!!", 60).verifyAccessToken(issued.token)).to.equal(
      null,
    );
    expect(tokens.verifyAccessToken("garbage")).to.equal(null);
  });

  it("stops accepting a token it has already checked once its exp has passed", () => {
    const tokens = new JwtTokenService("a-secret-of-at-least-32-characters!!", 60, 2);
    const issued = tokens.issueAccessToken("user1abcdefgh");
    expect(tokens.verifyAccessToken(issued.token)).to.equal("user1abcdefgh");
    const realNow = Date.now;
    try {
      Date.now = () => realNow() + 61_000;
      expect(tokens.verifyAccessToken(issued.token)).to.equal(null);
    } finally {
      Date.now = realNow;
    }
    // Remembers at most two tokens; the others are checked again, with the same answers.
    const more = ["user2abcdefgh", "user3abcdefgh", "user4abcdefgh"].map((user) => tokens.issueAccessToken(user).token);
    for (const token of [...more, ...more]) expect(tokens.verifyAccessToken(token)).to.match(/^user\dabcdefgh$/);
    expect(tokens.verifyAccessToken(`${more[0]}x`)).to.equal(null);
  });

  it("refuses a correctly signed token without exp or without iat", () => {
    const secret = "a-secret-of-at-least-32-characters!!";
    const tokens = new JwtTokenService(secret, 60);
    const noExp = jwt.sign({}, secret, { algorithm: "HS256", subject: "user1abcdefgh" });
    const noIat = jwt.sign({}, secret, {
      algorithm: "HS256",
      subject: "user1abcdefgh",
      expiresIn: 60,
      noTimestamp: true,
    });
    const both = jwt.sign({}, secret, { algorithm: "HS256", subject: "user1abcdefgh", expiresIn: 60 });
    expect(tokens.verifyAccessToken(noExp)).to.equal(null);
    expect(tokens.verifyAccessToken(noIat)).to.equal(null);
    expect(tokens.verifyAccessToken(both)).to.equal("user1abcdefgh");
  });
});
