import { createSecretKey, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import type { AccessToken, TokenService } from "../../ports/token-service.js";

/** HS256 access tokens with `sub` = user id. */
export class JwtTokenService implements TokenService {
  // Given a string, jsonwebtoken first tries (and fails) to parse it as a public key on every
  // verify, which cost ~40% of the API's CPU under load; a prepared KeyObject skips that.
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly accessTtlSeconds: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, "utf8"));
  }

  issueAccessToken(userId: string): AccessToken {
    const token = jwt.sign({}, this.key, {
      algorithm: "HS256",
      subject: userId,
      expiresIn: this.accessTtlSeconds,
    });
    return { token, expiresIn: this.accessTtlSeconds };
  }

  verifyAccessToken(token: string): string | null {
    try {
      // Pinning the algorithm refuses "none" and RS/HS confusion tricks.
      const payload = jwt.verify(token, this.key, { algorithms: ["HS256"] });
      if (typeof payload === "string" || typeof payload.sub !== "string" || payload.sub === "") return null;
      // jsonwebtoken only checks exp when present: a correctly signed token without it would
      // never expire, so every token must carry exp and iat.
      if (typeof payload.exp !== "number" || typeof payload.iat !== "number") return null;
      return payload.sub;
    } catch {
      // Expired, malformed or wrongly signed: all mean "not signed in".
      return null;
    }
  }
}
