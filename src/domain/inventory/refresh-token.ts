/**
 * A stored refresh token. Only the hash of the secret is kept. Tokens of one sign-in
 * share a `familyId`; each refresh rotates to a new token of the same family, and
 * presenting an already-rotated token revokes the whole family (theft detection).
 */
export interface RefreshToken {
  id: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
  revokedAt: Date | null;
  rotatedAt: Date | null;
  createdAt: Date;
}
