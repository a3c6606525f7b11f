import { createSecretKey, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import type { AccessToken, TokenService } from "../../ports/token-service.js";

/** HS256 access tokens with `sub` = user id. */
export class JwtTokenService implements TokenService {
  // Given a string, jsonwebtoken first tries (and fails) to parse it as a public key on every
  // verify, which cost ~40% of the API's CPU under load; a prepared KeyObject skips that.
  private readonly key: KeyObject;
  /**
   * Tokens whose signature was checked, with their subject and expiry. A client sends the same
   * token with every request for its whole lifetime, and checking the HMAC again each time was
   * ~4 % of a request's CPU; a remembered token still stops working at its `exp`.
   */
  private readonly verified = new Map<string, { userId: string; expiresAtMs: number }>();

  constructor(
    secret: string,
    private readonly accessTtlSeconds: number,
    private readonly rememberedTokens = 10_000,
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
    const known = this.verified.get(token);
    if (known) {
      // jsonwebtoken's rule: expired from the second `exp` names.
      if (Date.now() < known.expiresAtMs) return known.userId;
      this.verified.delete(token);
      return null;
    }
    try {
      // Pinning the algorithm refuses "none" and RS/HS confusion tricks.
      const payload = jwt.verify(token, this.key, { algorithms: ["HS256"] });
      if (typeof payload === "string" || typeof payload.sub !== "string" || payload.sub === "") return null;
      // jsonwebtoken only checks exp when present: a correctly signed token without it would
      // never expire, so every token must carry exp and iat.
      if (typeof payload.exp !== "number" || typeof payload.iat !== "number") return null;
      this.remember(token, payload.sub, payload.exp * 1000);
      return payload.sub;
    } catch {
      // Expired, malformed or wrongly signed: all mean "not signed in".
      return null;
    }
  }

  private remember(token: string, userId: string, expiresAtMs: number): void {
    if (this.rememberedTokens <= 0) return;
    this.verified.set(token, { userId, expiresAtMs });
    if (this.verified.size > this.rememberedTokens) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.verified.keys().next().value as string;
      this.verified.delete(oldest);
    }
  }
}
