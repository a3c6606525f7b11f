import { createHash, randomBytes } from "node:crypto";
import type { SecretGenerator } from "../../ports/secret-generator.js";

/** 32 random bytes (256 bits) as base64url; SHA-256 digests (the secrets are random, so no salt or KDF is needed). */
export class CryptoSecretGenerator implements SecretGenerator {
  generate(): string {
    return randomBytes(32).toString("base64url");
  }

  digest(secret: string): string {
    return createHash("sha256").update(secret).digest("hex");
  }
}
