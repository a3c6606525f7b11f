import type { RefreshToken } from "../domain/inventory/refresh-token.js";

export interface RefreshTokenRepository {
  insert(token: RefreshToken): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshToken | null>;
  /**
   * Marks a live token as rotated. Atomic: true for exactly one caller, false when the
   * token was already rotated or revoked (a concurrent refresh, or a replay).
   */
  markRotated(id: string, at: Date): Promise<boolean>;
  /** Revokes every token of the family that is not revoked yet. */
  revokeFamily(familyId: string, at: Date): Promise<void>;
  /** Revokes every unrevoked token of the user ("sign out everywhere"). */
  revokeAllForUser(userId: string, at: Date): Promise<void>;
}

export const REFRESH_TOKEN_REPOSITORY = Symbol("RefreshTokenRepository");
