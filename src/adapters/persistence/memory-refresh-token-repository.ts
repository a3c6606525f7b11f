import type { RefreshToken } from "../../domain/inventory/refresh-token.js";
import type { RefreshTokenRepository } from "../../ports/refresh-token-repository.js";
import { copy, type MemoryInventoryStore } from "./memory-inventory-store.js";

export class MemoryRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly store: MemoryInventoryStore) {}

  async insert(token: RefreshToken): Promise<void> {
    this.store.refreshTokens.set(token.id, copy(token));
  }

  async findByHash(tokenHash: string): Promise<RefreshToken | null> {
    for (const token of this.store.refreshTokens.values()) if (token.tokenHash === tokenHash) return copy(token);
    return null;
  }

  async rotate(id: string, at: Date, successor: RefreshToken): Promise<boolean> {
    const token = this.store.refreshTokens.get(id);
    if (!token || token.rotatedAt || token.revokedAt) return false;
    this.store.refreshTokens.set(id, { ...token, rotatedAt: at });
    this.store.refreshTokens.set(successor.id, copy(successor));
    return true;
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    for (const [id, token] of this.store.refreshTokens) {
      if (token.familyId === familyId && !token.revokedAt)
        this.store.refreshTokens.set(id, { ...token, revokedAt: at });
    }
  }

  async revokeAllForUser(userId: string, at: Date): Promise<void> {
    for (const [id, token] of this.store.refreshTokens) {
      if (token.userId === userId && !token.revokedAt) this.store.refreshTokens.set(id, { ...token, revokedAt: at });
    }
  }
}
