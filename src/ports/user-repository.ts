import type { Membership } from "../domain/inventory/household.js";
import type { InstallationRole, User } from "../domain/inventory/user.js";

/** An account deleted: what replaces its personal data; see {@link UserRepository.anonymise}. */
export interface Anonymisation {
  id: string;
  replacement: { name: string; email: string; passwordHash: string };
  at: Date;
  /** Sees the locked memberships and throws to refuse. */
  check?: ((memberships: Membership[]) => void) | undefined;
}

/** A page of the installation's accounts; see {@link UserRepository.listAccounts}. */
export interface AccountPage {
  users: User[];
  total: number;
}

export interface UserRepository {
  /**
   * Stores a new user; false when the (normalised) email is already taken. With
   * `adminIfFirst`, the user is stored as admin when no other active person's account exists
   * (automation actor accounts do not count), decided so that two first registrations at
   * once cannot both become admin; otherwise the user's own role is stored.
   */
  insert(user: User, options?: { adminIfFirst?: boolean }): Promise<boolean>;
  /** Active people's accounts (not deleted, not automation actors), oldest first. */
  listAccounts(page: { limit: number; offset: number }): Promise<AccountPage>;
  /**
   * Gives an active account the role; null for an unknown or deleted account, "last-admin"
   * (and nothing changed) when it would take admin from the only active admin. Concurrent
   * revocations are serialised so that two admins revoking each other leave one.
   */
  setRole(id: string, role: InstallationRole, at: Date): Promise<User | null | "last-admin">;
  findById(id: string): Promise<User | null>;
  /** Users with these ids, in no particular order; unknown ids are skipped. */
  findByIds(ids: string[]): Promise<User[]>;
  /** Looks up by normalised email, deleted accounts included. */
  findByEmail(email: string): Promise<User | null>;
  updateName(id: string, name: string, at: Date): Promise<User | null>;
  /** Changes the (normalised) email; "taken" when another account has it, null for an unknown id. */
  updateEmail(id: string, email: string, at: Date): Promise<User | null | "taken">;
  updatePasswordHash(id: string, passwordHash: string, at: Date): Promise<User | null>;
  /**
   * Anonymises the account (name, email, password hash replaced, deletedAt set, role member) and
   * removes its memberships and refresh tokens, all in one transaction. The memberships are
   * locked first and shown to `check`, which may refuse by throwing (an owner must transfer
   * first): a transfer of ownership to this user at the same moment is either seen or fails.
   */
  anonymise(anonymisation: Anonymisation): Promise<void>;
}

export const USER_REPOSITORY = Symbol("UserRepository");
