import type { Knex } from "knex";
import type { RefreshToken } from "../../domain/inventory/refresh-token.js";
import type { RefreshTokenRepository } from "../../ports/refresh-token-repository.js";
import { toDate, toDateOrNull } from "./knex-rows.js";

interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  rotated_at: Date | null;
  created_at: Date;
}

function toToken(row: RefreshTokenRow): RefreshToken {
  return {
    id: row.id,
    userId: row.user_id,
    familyId: row.family_id,
    tokenHash: row.token_hash,
    expiresAt: toDate(row.expires_at),
    revokedAt: toDateOrNull(row.revoked_at),
    rotatedAt: toDateOrNull(row.rotated_at),
    createdAt: toDate(row.created_at),
  };
}

export class KnexRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly knex: Knex) {}

  async insert(token: RefreshToken): Promise<void> {
    await this.knex("refresh_tokens").insert({
      id: token.id,
      user_id: token.userId,
      family_id: token.familyId,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      revoked_at: token.revokedAt,
      rotated_at: token.rotatedAt,
      created_at: token.createdAt,
    });
  }

  async findByHash(tokenHash: string): Promise<RefreshToken | null> {
    const row = await this.knex<RefreshTokenRow>("refresh_tokens").where({ token_hash: tokenHash }).first();
    return row ? toToken(row) : null;
  }

  async markRotated(id: string, at: Date): Promise<boolean> {
    // The WHERE makes this a compare-and-set: of two concurrent refreshes exactly one updates the row.
    const count = await this.knex("refresh_tokens")
      .where({ id })
      .whereNull("rotated_at")
      .whereNull("revoked_at")
      .update({ rotated_at: at });
    return count === 1;
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await this.knex("refresh_tokens").where({ family_id: familyId }).whereNull("revoked_at").update({ revoked_at: at });
  }

  async revokeAllForUser(userId: string, at: Date): Promise<void> {
    await this.knex("refresh_tokens").where({ user_id: userId }).whereNull("revoked_at").update({ revoked_at: at });
  }
}
