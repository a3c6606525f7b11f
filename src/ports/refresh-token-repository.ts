import type { RefreshToken } from "../domain/inventory/refresh-token.js";

export interface RefreshTokenRepository {
  insert(token: RefreshToken): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshToken | null>;
  /**
   * Marks a live token as rotated and stores its successor, both or neither. Atomic: true for
   * exactly one caller, false when the token was already rotated or revoked (a concurrent
   * refresh, or a replay); a caller that gets false and reads the token again sees the
   * successor already stored.
   */
  rotate(id: string, at: Date, successor: RefreshToken): Promise<boolean>;
  /** Revokes every token of the family that is not revoked yet. */
  revokeFamily(familyId: string, at: Date): Promise<void>;
  /** Revokes every unrevoked token of the user ("sign out everywhere"). */
  revokeAllForUser(userId: string, at: Date): Promise<void>;
}

export const REFRESH_TOKEN_REPOSITORY = Symbol("RefreshTokenRepository");
