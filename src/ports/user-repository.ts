import type { Membership } from "../domain/inventory/household.js";
import type { User } from "../domain/inventory/user.js";

/** An account deleted: what replaces its personal data; see {@link UserRepository.anonymise}. */
export interface Anonymisation {
  id: string;
  replacement: { name: string; email: string; passwordHash: string };
  at: Date;
  /** Sees the locked memberships and throws to refuse. */
  check?: ((memberships: Membership[]) => void) | undefined;
}

export interface UserRepository {
  /** Stores a new user; false when the (normalised) email is already taken. */
  insert(user: User): Promise<boolean>;
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
   * Anonymises the account (name, email, password hash replaced, deletedAt set) and
   * removes its memberships and refresh tokens, all in one transaction. The memberships are
   * locked first and shown to `check`, which may refuse by throwing (an owner must transfer
   * first): a transfer of ownership to this user at the same moment is either seen or fails.
   */
  anonymise(anonymisation: Anonymisation): Promise<void>;
}

export const USER_REPOSITORY = Symbol("UserRepository");
