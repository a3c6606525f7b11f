import { AUTOMATION_ACCOUNTS_DOMAIN, type InstallationRole, type User } from "../../domain/inventory/user.js";
import type { AccountPage, Anonymisation, UserRepository } from "../../ports/user-repository.js";
import { copy, type MemoryInventoryStore } from "./memory-inventory-store.js";

export class MemoryUserRepository implements UserRepository {
  constructor(private readonly store: MemoryInventoryStore) {}

  async insert(user: User, options: { adminIfFirst?: boolean } = {}): Promise<boolean> {
    for (const existing of this.store.users.values()) if (existing.email === user.email) return false;
    const first = options.adminIfFirst === true && this.people().length === 0;
    this.store.users.set(user.id, copy(first ? { ...user, role: "admin" } : user));
    return true;
  }

  async listAccounts({ limit, offset }: { limit: number; offset: number }): Promise<AccountPage> {
    const people = this.people();
    return { users: people.slice(offset, offset + limit).map(copy), total: people.length };
  }

  async setRole(id: string, role: InstallationRole, at: Date): Promise<User | null | "last-admin"> {
    const user = this.store.users.get(id);
    if (!user || user.deletedAt) return null;
    const admins = [...this.store.users.values()].filter((other) => other.role === "admin" && !other.deletedAt);
    if (role !== "admin" && user.role === "admin" && admins.length <= 1) return "last-admin";
    if (user.role === role) return copy(user);
    const updated = { ...user, role, updatedAt: at };
    this.store.users.set(id, updated);
    return copy(updated);
  }

  /** Active people's accounts (not deleted, not automation actors), oldest first. */
  private people(): User[] {
    return [...this.store.users.values()]
      .filter((user) => !user.deletedAt && !user.email.endsWith(`@${AUTOMATION_ACCOUNTS_DOMAIN}`))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async findById(id: string): Promise<User | null> {
    const user = this.store.users.get(id);
    return user ? copy(user) : null;
  }

  async findByIds(ids: string[]): Promise<User[]> {
    return [...new Set(ids)].flatMap((id) => {
      const user = this.store.users.get(id);
      return user ? [copy(user)] : [];
    });
  }

  async findByEmail(email: string): Promise<User | null> {
    for (const user of this.store.users.values()) if (user.email === email) return copy(user);
    return null;
  }

  async updateName(id: string, name: string, at: Date): Promise<User | null> {
    const user = this.store.users.get(id);
    if (!user) return null;
    const updated = { ...user, name, updatedAt: at };
    this.store.users.set(id, updated);
    return copy(updated);
  }

  async updateEmail(id: string, email: string, at: Date): Promise<User | null | "taken"> {
    const user = this.store.users.get(id);
    if (!user) return null;
    for (const existing of this.store.users.values())
      if (existing.id !== id && existing.email === email) return "taken";
    const updated = { ...user, email, updatedAt: at };
    this.store.users.set(id, updated);
    return copy(updated);
  }

  async updatePasswordHash(id: string, passwordHash: string, at: Date): Promise<User | null> {
    const user = this.store.users.get(id);
    if (!user) return null;
    const updated = { ...user, passwordHash, updatedAt: at };
    this.store.users.set(id, updated);
    return copy(updated);
  }

  async anonymise({ id, replacement, at, check }: Anonymisation): Promise<void> {
    const user = this.store.users.get(id);
    if (!user) return;
    check?.([...this.store.memberships.values()].filter((membership) => membership.userId === id).map(copy));
    this.store.users.set(id, { ...user, ...replacement, role: "member", deletedAt: at, updatedAt: at });
    for (const [key, membership] of this.store.memberships) {
      if (membership.userId === id) this.store.memberships.delete(key);
    }
    for (const [key, token] of this.store.refreshTokens) {
      if (token.userId === id) this.store.refreshTokens.delete(key);
    }
    for (const cascade of this.store.userCascades) cascade(id);
  }
}
