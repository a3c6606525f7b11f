/** Unguessable opaque secrets (refresh tokens, invite codes) and their one-way digests. */
export interface SecretGenerator {
  /** A URL-safe random string carrying at least 256 bits of randomness. */
  generate(): string;
  /** A deterministic digest for storing and looking up a secret without keeping it. */
  digest(secret: string): string;
}

export const SECRET_GENERATOR = Symbol("SecretGenerator");
