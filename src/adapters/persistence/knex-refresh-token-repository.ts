import type { Knex } from "knex";
import type { RefreshToken } from "../../domain/inventory/refresh-token.js";
import type { RefreshTokenRepository } from "../../ports/refresh-token-repository.js";
import { type Columns, fromColumns, toColumns } from "./knex-rows.js";

type RefreshTokenRow = Columns<RefreshToken>;

const toToken = (row: RefreshTokenRow): RefreshToken =>
  fromColumns(row, ["expiresAt", "revokedAt", "rotatedAt", "createdAt"]);

export class KnexRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly knex: Knex) {}

  async insert(token: RefreshToken): Promise<void> {
    await this.knex("refresh_tokens").insert(toColumns(token));
  }

  async findByHash(tokenHash: string): Promise<RefreshToken | null> {
    const row = await this.knex<RefreshTokenRow>("refresh_tokens").where({ token_hash: tokenHash }).first();
    return row ? toToken(row) : null;
  }

  async rotate(id: string, at: Date, successor: RefreshToken): Promise<boolean> {
    // The WHERE makes the update a compare-and-set: of two concurrent refreshes exactly one updates
    // the row. The loser's update waits for the winner's row lock, so once it reports 0 rows the
    // winner's successor is committed and the loser can hand that successor out.
    return this.knex.transaction(async (trx) => {
      const count = await trx("refresh_tokens")
        .where({ id })
        .whereNull("rotated_at")
        .whereNull("revoked_at")
        .update({ rotated_at: at });
      if (count !== 1) return false;
      await trx("refresh_tokens").insert(toColumns(successor));
      return true;
    });
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await this.knex("refresh_tokens").where({ family_id: familyId }).whereNull("revoked_at").update({ revoked_at: at });
  }

  async revokeAllForUser(userId: string, at: Date): Promise<void> {
    await this.knex("refresh_tokens").where({ user_id: userId }).whereNull("revoked_at").update({ revoked_at: at });
  }
}
