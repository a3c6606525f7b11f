/** Unguessable opaque secrets (refresh tokens, invite codes) and their one-way digests. */
export interface SecretGenerator {
  /** A URL-safe random string carrying at least 256 bits of randomness. */
  generate(): string;
  /** A deterministic digest for storing and looking up a secret without keeping it. */
  digest(secret: string): string;
  /**
   * A secret derived from `secret` under the server's own key: the same on every process that
   * shares the key, and unguessable for anyone who holds neither `secret` nor the key. `purpose`
   * separates derivations, so one derived secret never equals another's.
   */
  derive(secret: string, purpose: string): string;
}

export const SECRET_GENERATOR = Symbol("SecretGenerator");
