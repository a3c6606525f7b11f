import { createHash, createHmac, randomBytes } from "node:crypto";
import type { SecretGenerator } from "../../ports/secret-generator.js";

/** 32 random bytes (256 bits) as base64url; SHA-256 digests (the secrets are random, so no salt or KDF is needed). */
export class CryptoSecretGenerator implements SecretGenerator {
  private readonly key: Buffer;

  /**
   * @param key the key of `derive`; every process sharing a database must be given the same one
   *   (composition passes one derived from the JWT secret). Without one, a random key serves one process.
   */
  constructor(key?: string) {
    this.key = key === undefined ? randomBytes(32) : createHash("sha256").update(`hearth-derive\0${key}`).digest();
  }

  generate(): string {
    return randomBytes(32).toString("base64url");
  }

  digest(secret: string): string {
    return createHash("sha256").update(secret).digest("hex");
  }

  derive(secret: string, purpose: string): string {
    return createHmac("sha256", this.key).update(`${purpose}\0${secret}`).digest("base64url");
  }
}
